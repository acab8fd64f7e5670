package inprocess

import (
	"context"
	"fmt"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/examples/blog"
)

// graftEngines returns graft through its public Router.Execute: the whole
// pipeline without HTTP (document cache, limits, variables, execution,
// response writing). Cold runs send a distinct text each time, so every
// request is parsed, validated and planned.
func graftEngines() []engine {
	return []engine{{name: "graft", cold: graftRunner, warm: graftRunner, exact: true}}
}

func graftRunner(*data.Set) (runner, error) {
	s, err := blog.Schema()
	if err != nil {
		return nil, err
	}
	r, err := graft.NewRouter(s, nil, graft.Config{})
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, query, op string, vars map[string]any) ([]byte, error) {
		status, body := r.Execute(ctx, graft.Request{Query: query, OperationName: op, Variables: vars})
		if status != 200 {
			return nil, fmt.Errorf("graft: status %d: %.300s", status, body)
		}
		return body, nil
	}, nil
}
