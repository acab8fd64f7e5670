package graftserver_test

import (
	"context"
	"fmt"
	"net/http"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/graftserver"
	"github.com/graftgql/graft/pubsub"
	"github.com/graftgql/graft/schema"
)

func helloSchema(pubsub.PubSub) (*schema.Schema, error) {
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(context.Context) (string, error) { return "world", nil })
	return b.Build()
}

// A service's whole main function: the schema and one call. The command
// line is cmd/graft's (serve, sdl, manifest, hash, --help) and the
// environment configures it.
func ExampleMain() {
	if false { // Main exits the process; this example only shows the call.
		graftserver.Main(graftserver.Service{Name: "hello", Schema: helloSchema})
	}
}

// Run serves until its context ends. Here the environment is a map (a
// loopback address on a free port), and the service stops once it has
// answered its own health check.
func ExampleRun() {
	env := map[string]string{"HOST": "127.0.0.1", "PORT": "0", "LOG_LEVEL": "error"}
	ctx, cancel := context.WithCancel(context.Background())
	err := graftserver.Run(ctx, graftserver.Service{
		Name:   "hello",
		Schema: helloSchema,
		Env:    func(name string) (string, bool) { v, ok := env[name]; return v, ok },
		Serve: func(o *graft.ServeOptions) {
			o.OnStart = func(url string) {
				defer cancel()
				resp, err := http.Get(url + "/health")
				if err != nil {
					fmt.Println(err)
					return
				}
				resp.Body.Close()
				fmt.Println("health:", resp.StatusCode)
			}
		},
	})
	fmt.Println("stopped:", err)
	// Output:
	// health: 200
	// stopped: <nil>
}
