// Package inprocess benchmarks GraphQL engines without HTTP: the cold path
// (parse, validate and execute a document the engine has not seen) and the
// warm path (the engine's cache of prepared documents, where it has one),
// for q1 to q3 of the workload. Run with
//
//	go test -bench . -benchmem ./inprocess
//
// Names read BenchmarkQ2/gqlgen-warm and so on, for benchstat.
package inprocess

import (
	"context"
	"encoding/json"
	"fmt"

	gqlgengraphql "github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/executor"
	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/peers/gqlgen"
	"github.com/graftgql/graft/bench/peers/graphgophers"
	"github.com/graftgql/graft/bench/peers/graphqlgo"
	"github.com/graftgql/graft/bench/workload"
	"github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/parser"
	"github.com/graphql-go/graphql/language/source"
)

// runner answers one request with a whole JSON response body.
type runner func(ctx context.Context, query, operationName string, vars map[string]any) ([]byte, error)

// engine is one engine under benchmark; warm is nil when the engine has no
// cache of prepared documents.
type engine struct {
	name string
	cold func(d *data.Set) (runner, error)
	warm func(d *data.Set) (runner, error)
	// exact says the body must match the expected bytes, not only the JSON value.
	exact bool
}

func engines() []engine {
	return append([]engine{
		{name: "gqlgen", cold: gqlgenRunner(false), warm: gqlgenRunner(true)},
		{name: "graph-gophers", cold: graphGophersRunner},
		{name: "graphql-go", cold: graphqlGoRunner, warm: graphqlGoWarmRunner},
	}, graftEngines()...)
}

func gqlgenRunner(cached bool) func(d *data.Set) (runner, error) {
	return func(d *data.Set) (runner, error) {
		e := gqlgen.Executor(d, cached)
		return func(ctx context.Context, query, op string, vars map[string]any) ([]byte, error) {
			return gqlgenExec(ctx, e, query, op, vars)
		}, nil
	}
}

func gqlgenExec(ctx context.Context, e *executor.Executor, query, op string, vars map[string]any) ([]byte, error) {
	ctx = gqlgengraphql.StartOperationTrace(ctx)
	params := &gqlgengraphql.RawParams{Query: query, OperationName: op, Variables: vars}
	oc, errs := e.CreateOperationContext(ctx, params)
	if errs != nil {
		return json.Marshal(e.DispatchError(gqlgengraphql.WithOperationContext(ctx, oc), errs))
	}
	handle, ctx := e.DispatchOperation(ctx, oc)
	return json.Marshal(handle(ctx))
}

func graphGophersRunner(d *data.Set) (runner, error) {
	s, err := graphgophers.Schema(d)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, query, op string, vars map[string]any) ([]byte, error) {
		return json.Marshal(s.Exec(ctx, query, op, vars))
	}, nil
}

func graphqlGoRunner(d *data.Set) (runner, error) {
	s, err := graphqlgo.Schema(d)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, query, op string, vars map[string]any) ([]byte, error) {
		return json.Marshal(graphql.Do(graphql.Params{Schema: s, RequestString: query, OperationName: op, VariableValues: vars, Context: ctx}))
	}, nil
}

// graphqlGoWarmRunner parses and validates each document once, then only
// executes it: graphql-go has no cache, so this is what a caller caching
// the parsed document would get.
func graphqlGoWarmRunner(d *data.Set) (runner, error) {
	s, err := graphqlgo.Schema(d)
	if err != nil {
		return nil, err
	}
	cache := map[string]*graphql.ExecuteParams{}
	return func(ctx context.Context, query, op string, vars map[string]any) ([]byte, error) {
		p := cache[query]
		if p == nil {
			doc, err := parser.Parse(parser.ParseParams{Source: source.NewSource(&source.Source{Body: []byte(query)})})
			if err != nil {
				return nil, err
			}
			if v := graphql.ValidateDocument(&s, doc, nil); !v.IsValid {
				return nil, fmt.Errorf("graphql-go: invalid document: %v", v.Errors)
			}
			p = &graphql.ExecuteParams{Schema: s, AST: doc}
			cache[query] = p
		}
		params := *p
		params.OperationName, params.Args, params.Context = op, vars, ctx
		return json.Marshal(graphql.Execute(params))
	}, nil
}

// queries returns q1 to q3: q4's text differs across engines.
func queries() []workload.Query {
	return workload.Queries()[:3]
}
