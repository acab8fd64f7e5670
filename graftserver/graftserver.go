// Package graftserver runs a GraphQL service in production with one call:
// everything the ready-to-run server cmd/graft runs, for an application's
// own schema and layer. It reads the same environment variables as
// cmd/graft (a service's --help lists them; docs/deployment.md explains
// them): the router's limits, CSRF prevention and GraphiQL, persisted
// queries in memory or in Redis, Redis Pub/Sub for subscriptions across
// instances, CORS, structured logs with an access log and request IDs,
// /health and /ready (false from the start of a graceful shutdown, for
// a configurable drain delay), Prometheus metrics (on the API's listener
// or an address of their own) and OpenTelemetry traces.
//
// What a Service sets in code wins over the environment: Config and Serve
// are called with the values read from it.
//
// Main also gives the program cmd/graft's command line for its own
// schema: serve (the default), sdl, hash and manifest.
package graftserver

import (
	"context"
	"flag"
	"io"
	"net/http"
	"os"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/pubsub"
	"github.com/graftgql/graft/schema"
)

// Service is an application's GraphQL service: its schema, its layer, and
// what it sets in code over the environment. Only Schema is required.
type Service struct {
	// Name names the service in logs and is the default of
	// OTEL_SERVICE_NAME; empty means "graft".
	Name string
	// Schema builds the schema. ps is the PubSub subscriptions should
	// publish through: Redis Pub/Sub when REDIS_URL is set (so an event
	// published on one instance reaches the subscribers of every
	// instance), else one in memory. A schema without subscriptions
	// ignores it.
	Schema func(ps pubsub.PubSub) (*schema.Schema, error)
	// Layer holds the services resolvers reach with graft.Service; nil
	// means an empty layer. Serve starts it before the first request and
	// stops it after the last.
	Layer *graft.Layer
	// Config, when set, is called with the router configuration read from
	// the environment (logger, access log, persisted queries and
	// telemetry hooks already installed): what it sets wins.
	Config func(cfg *graft.Config) error
	// Serve, when set, is called with the server options read from the
	// environment: what it sets wins (a Listener in tests, for one).
	Serve func(opts *graft.ServeOptions)
	// Checks are more readiness checks, beside those of Redis: a
	// database's ping, say. /ready answers 503 while one fails.
	Checks []graft.Check
	// Handler, when set, wraps the GraphQL endpoint (the router) before it
	// is mounted: the application's own HTTP middleware.
	Handler func(api http.Handler) http.Handler
	// Routes, when set, adds the application's own routes to the mux that
	// holds the GraphQL endpoint, /health and /ready.
	Routes func(mux *http.ServeMux)
	// Flags, when set, adds flags to the serve and sdl commands; they are
	// parsed before Schema is called.
	Flags func(fs *flag.FlagSet)
	// Env finds an environment variable; nil means os.LookupEnv. The
	// OpenTelemetry SDK reads its OTEL_* variables from the process
	// environment in any case.
	Env func(name string) (string, bool)
	// Stderr receives the logs; nil means os.Stderr.
	Stderr io.Writer
}

// Main runs the command line of os.Args (serve, sdl, hash or manifest;
// serve when none is named) for svc and exits with its status: the whole
// main function of a service.
func Main(svc Service) {
	os.Exit(Command(context.Background(), svc, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Run serves svc until ctx ends or the process receives SIGINT or
// SIGTERM, then shuts down gracefully: readiness turns false, requests
// are served for SHUTDOWN_DELAY, in-flight ones get SHUTDOWN_GRACE to
// finish, then the layer, the telemetry and the Redis clients stop. A bad
// environment variable is an error naming it, before anything listens.
func Run(ctx context.Context, svc Service) error {
	srv, err := newServer(ctx, svc, svc.lookup(), svc.stderr())
	if err != nil {
		return err
	}
	return srv.run(ctx)
}

func (svc Service) lookup() func(string) (string, bool) {
	if svc.Env != nil {
		return svc.Env
	}
	return os.LookupEnv
}

func (svc Service) stderr() io.Writer {
	if svc.Stderr != nil {
		return svc.Stderr
	}
	return os.Stderr
}

func (svc Service) name() string {
	if svc.Name != "" {
		return svc.Name
	}
	return "graft"
}
