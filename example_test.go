package graft_test

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/schema"
)

// User is an object type derived from a Go struct.
type User struct {
	ID   schema.ID
	Name string
}

// UserArgs are the arguments of Query.user.
type UserArgs struct {
	ID schema.ID
}

// Store is an application service the resolvers read from the layer.
type Store struct{ users map[schema.ID]*User }

// This is the quick start: a code-first schema, a service layer and a
// router, queried over HTTP.
func ExampleNewRouter() {
	b := schema.New()
	schema.Object[User](b, "User", schema.Description("A user of the service."))
	schema.Query(b, "user", func(ctx context.Context, args UserArgs) (*User, error) {
		store, err := graft.Service[*Store](ctx)
		if err != nil {
			return nil, err
		}
		return store.users[args.ID], nil
	})
	s, err := b.Build()
	if err != nil {
		panic(err)
	}

	layer := graft.NewLayer()
	graft.Provide(layer, func(ctx context.Context) (*Store, func(context.Context) error, error) {
		return &Store{users: map[schema.ID]*User{"1": {ID: "1", Name: "Ada"}}}, nil, nil
	})

	router, err := graft.NewRouter(s, layer, graft.Config{GraphiQL: &graft.GraphiQLConfig{}})
	if err != nil {
		panic(err)
	}
	// In a program: graft.Serve(ctx, router, graft.ServeOptions{Port: 4000}).

	req := httptest.NewRequest("POST", "/graphql", strings.NewReader(`{"query":"{ user(id: \"1\") { id name } }"}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	router.ServeHTTP(rec, req)
	body, _ := io.ReadAll(rec.Body)
	fmt.Println(rec.Code, string(body))
	// Output: 200 {"data":{"user":{"id":"1","name":"Ada"}}}
}

// ConfigFromEnv reads the router's configuration from the environment;
// ConfigFromLookup does the same from any source.
func ExampleConfigFromLookup() {
	env := map[string]string{"GRAPHQL_MAX_DEPTH": "10", "GRAPHIQL_ENABLED": "yes"}
	cfg, err := graft.ConfigFromLookup(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	fmt.Println(cfg.Complexity.MaxDepth, cfg.GraphiQL.Path, err)

	_, err = graft.ConfigFromLookup(func(k string) (string, bool) {
		if k == "GRAPHQL_MAX_DEPTH" {
			return "abc", true
		}
		return "", false
	})
	fmt.Println(err)
	// Output:
	// 10 /graphiql <nil>
	// GRAPHQL_MAX_DEPTH="abc": must be a non-negative integer
}

// Execute runs a query through the router's pipeline without HTTP.
func ExampleRouter_Execute() {
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(ctx context.Context) (string, error) { return "world", nil })
	router, err := graft.ToRouter(b, nil, graft.Config{})
	if err != nil {
		panic(err)
	}
	status, body := router.Execute(context.Background(), graft.Request{Query: "{ hello }"})
	fmt.Println(status, string(body))
	// Output: 200 {"data":{"hello":"world"}}
}

// AppendExecute writes each answer into the caller's buffer: a worker
// that consumes each answer before the next request reuses one buffer.
func ExampleRouter_AppendExecute() {
	b := schema.New()
	schema.Query(b, "greet", func(ctx context.Context, a struct{ Name string }) (string, error) { return "hello " + a.Name, nil })
	router, err := graft.ToRouter(b, nil, graft.Config{})
	if err != nil {
		panic(err)
	}
	var buf []byte
	for _, name := range []string{"Ada", "Grace"} {
		req := graft.Request{Query: `query($n: String!) { greet(name: $n) }`, Variables: map[string]any{"n": name}}
		status, body := router.AppendExecute(context.Background(), buf[:0], req)
		fmt.Println(status, string(body))
		buf = body
	}
	// Output:
	// 200 {"data":{"greet":"hello Ada"}}
	// 200 {"data":{"greet":"hello Grace"}}
}
