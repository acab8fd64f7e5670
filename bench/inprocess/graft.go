package inprocess

import (
	"context"
	"fmt"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/peers/gqlgengraft"
	"github.com/graftgql/graft/examples/blog"
)

// graftEngines returns graft through its public API, the whole pipeline
// without HTTP (document cache, limits, variables, execution, response
// writing): graft is Router.Execute, which hands the caller a new body
// each time; graft-append is Router.AppendExecute into one buffer the
// runner reuses, each answer being consumed before the next request.
// Cold runs send a distinct text each time, so every request is parsed,
// validated and planned.
func graftEngines() []engine {
	return []engine{
		{name: "graft", cold: graftRunner, warm: graftRunner, exact: true},
		{name: "graft-append", cold: graftAppendRunner, warm: graftAppendRunner, exact: true},
		{name: "gqlgen-via-graft", cold: gqlgenViaGraftRunner, warm: gqlgenViaGraftRunner, exact: true},
	}
}

// gqlgenViaGraftRunner is the gqlgen peer's project with its generated
// code deleted, served by graft through the gqlgen module: its resolver
// methods are called through reflection.
func gqlgenViaGraftRunner(d *data.Set) (runner, error) {
	r, err := gqlgengraft.Router(d)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, query, op string, vars map[string]any) ([]byte, error) {
		status, body := r.Execute(ctx, graft.Request{Query: query, OperationName: op, Variables: vars})
		return graftAnswer(status, body)
	}, nil
}

func blogRouter() (*graft.Router, error) {
	s, err := blog.Schema()
	if err != nil {
		return nil, err
	}
	return graft.NewRouter(s, nil, graft.Config{})
}

func graftRunner(*data.Set) (runner, error) {
	r, err := blogRouter()
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, query, op string, vars map[string]any) ([]byte, error) {
		status, body := r.Execute(ctx, graft.Request{Query: query, OperationName: op, Variables: vars})
		return graftAnswer(status, body)
	}, nil
}

func graftAppendRunner(*data.Set) (runner, error) {
	r, err := blogRouter()
	if err != nil {
		return nil, err
	}
	var buf []byte
	return func(ctx context.Context, query, op string, vars map[string]any) ([]byte, error) {
		status, body := r.AppendExecute(ctx, buf[:0], graft.Request{Query: query, OperationName: op, Variables: vars})
		buf = body
		return graftAnswer(status, body)
	}, nil
}

func graftAnswer(status int, body []byte) ([]byte, error) {
	if status != 200 {
		return nil, fmt.Errorf("graft: status %d: %.300s", status, body)
	}
	return body, nil
}
