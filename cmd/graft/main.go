// Command graft is the ready-to-run graft server, serving one of graft's
// example schemas, and its tools. It is graftserver's command line:
//
//	graft [serve] [-example blog|chat|starwars|...]   serve an example schema (default)
//	graft sdl [-example name]                        print an example schema's SDL
//	graft manifest [-o out.json] files...            build a persisted-query manifest
//	graft hash [-algorithm sha256|sha512] [-raw] [file|-]
//	                                                 print each operation's manifest id
//
// The server is configured from the environment; `graft --help` lists every
// variable with its default. A service of its own gets all of this from
// graftserver.Main.
package main

import (
	"context"
	"flag"
	"io"
	"os"
	"strings"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/federation"
	"github.com/graftgql/graft/graftserver"
	"github.com/graftgql/graft/pubsub"
	"github.com/graftgql/graft/schema"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.LookupEnv, os.Stdin, os.Stdout, os.Stderr))
}

// env finds an environment variable, like os.LookupEnv.
type env func(name string) (string, bool)

// run runs the command line args and returns the exit code: 0 on success,
// 1 when the command fails, 2 for a usage error.
func run(ctx context.Context, args []string, lookup env, stdin io.Reader, stdout, stderr io.Writer) int {
	return graftserver.Command(ctx, service(lookup), args, stdin, stdout, stderr)
}

// service is the graftserver.Service of the example the -example flag
// or GRAFT_EXAMPLE names.
func service(lookup env) graftserver.Service {
	var flagName string
	name := func() string {
		if flagName != "" {
			return strings.ToLower(flagName)
		}
		if v, ok := lookup("GRAFT_EXAMPLE"); ok && v != "" {
			return strings.ToLower(v)
		}
		return defaultExample
	}
	svc := graftserver.Service{
		Name: "graft",
		Env:  lookup,
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&flagName, "example", "", "example schema to serve: "+exampleNames()+" (default $GRAFT_EXAMPLE or "+defaultExample+")")
		},
		Schema: func(ps pubsub.PubSub) (*schema.Schema, error) { return buildExample(name(), ps) },
		Config: func(cfg *graft.Config) error {
			if strings.HasPrefix(name(), "federation-") {
				cfg.Hooks = append(cfg.Hooks, federation.TracingHook()) // ftv1 inline traces for gateways
			}
			return nil
		},
	}
	// The start-up line says which example is served.
	svc.Serve = func(o *graft.ServeOptions) {
		onStart, log := o.OnStart, o.Logger
		o.OnStart = func(url string) {
			log.Info("graft: serving the "+name()+" example (choose another with -example or GRAFT_EXAMPLE: "+exampleNames()+")", "example", name())
			if onStart != nil {
				onStart(url)
			}
		}
	}
	return svc
}
