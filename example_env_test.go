package graft_test

import (
	"fmt"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/limits"
)

// An application supplies its own defaults; the environment overrides
// only the variables it sets, and an explicit 0 switches a limit off.
func ExampleConfig_WithEnv() {
	env := map[string]string{"GRAPHQL_MAX_COMPLEXITY": "0", "GRAPHQL_MAX_ALIASES": "20"}
	lookup := func(name string) (string, bool) { v, ok := env[name]; return v, ok }

	app := graft.Config{Complexity: limits.Config{MaxDepth: 8, MaxComplexity: 1000}}
	cfg, err := app.WithEnv(lookup) // nil reads the process environment
	if err != nil {
		fmt.Println(err)
		return
	}
	c := cfg.Complexity
	fmt.Println("depth", c.MaxDepth, "complexity", c.MaxComplexity, "aliases", c.MaxAliases)

	_, err = app.WithEnv(func(name string) (string, bool) {
		return "deep", name == "GRAPHQL_MAX_DEPTH"
	})
	fmt.Println(err)
	// Output:
	// depth 8 complexity 0 aliases 20
	// GRAPHQL_MAX_DEPTH="deep": must be a non-negative integer
}

// A program serving with graft.Serve reads PORT, HOST and SHUTDOWN_GRACE
// like cmd/graft does.
func ExampleServeOptionsFromEnv() {
	opts, err := graft.ServeOptionsFromEnv()
	if err != nil {
		fmt.Println(err) // e.g. PORT="http": must be a port number from 0 to 65535
		return
	}
	opts.OnStart = func(url string) { fmt.Println("listening on", url) }
	_ = opts // graft.Serve(ctx, router, nil, opts)
}
