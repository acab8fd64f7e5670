// Package servers lists every server the benchmark compares, under the
// names the load generator passes to `bench serve -server NAME`.
package servers

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/graftgql/graft/bench/check"
	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/peers/ceiling"
	"github.com/graftgql/graft/bench/peers/gqlgen"
	"github.com/graftgql/graft/bench/peers/graphgophers"
	"github.com/graftgql/graft/bench/peers/graphqlgo"
	"github.com/graftgql/graft/bench/upstream"
	"github.com/graftgql/graft/bench/workload"
)

// Path is the URL path every server answers GraphQL on.
const Path = "/graphql"

// Env is what a server process is started with.
type Env struct {
	// Host and Port are where it listens.
	Host string
	Port int
	// Upstream is the upstream service's client; set for upstream servers
	// only.
	Upstream *upstream.Client
}

// Server is one benchmarked server.
type Server struct {
	// Name identifies the server in commands and reports.
	Name string
	// Check is how strictly its answers are compared with the ceiling's.
	Check check.Mode
	// APQ says the server answers automatic persisted queries.
	APQ bool
	// Upstream says the server resolves through the upstream service: it
	// runs the upstream queries (q5, q6) and only those; the others run
	// the in-memory queries.
	Upstream bool
	// Reference marks the ceilings, which do no GraphQL work.
	Reference bool
	// Handler builds an in-memory server's net/http handler for Path; nil
	// for the others.
	Handler func(*data.Set) (http.Handler, error)
	// UpstreamHandler builds an upstream server's net/http handler for
	// Path; nil for the others.
	UpstreamHandler func(*upstream.Client) (http.Handler, error)
	// Serve listens on env's address, calls ready once it accepts
	// connections, and serves until ctx is done. Nil for servers that run
	// as a Command.
	Serve func(ctx context.Context, env Env, ready func()) error
	// Command is the command line of a server that is not a Go program
	// (the Node peers) given its port and the upstream's base URL ("" for
	// in-memory servers), and the environment it needs beside the
	// parent's; it prints "ready" on stdout once it accepts connections.
	Command func(port int, upstreamURL string) (argv, env []string)
}

// Runs says whether s runs query q.
func (s Server) Runs(q workload.Query) bool {
	if q.Persisted && !s.APQ {
		return false
	}
	return q.Upstream == s.Upstream || s.Reference
}

// All returns every server, the ceiling first: the in-memory servers, then
// the upstream servers. The Node peers are listed only when their packages
// are installed (`npm ci` in bench/node).
func All() []Server {
	all := []Server{
		netHTTP("ceiling", check.Exact, true, ceiling.Handler),
		netHTTP("ceiling-decode", check.Exact, true, ceiling.DecodeHandler),
		netHTTP("gqlgen", check.Normalised, true, func(d *data.Set) (http.Handler, error) { return gqlgen.Handler(d), nil }),
		netHTTP("graph-gophers", check.Normalised, false, graphgophers.Handler),
		netHTTP("graphql-go", check.Normalised, false, graphqlgo.Handler),
	}
	all[0].Reference, all[1].Reference = true, true
	all = append(all, graftServers()...)
	all = append(all, nodeServers(false)...)
	all = append(all,
		upstreamNetHTTP("gqlgen-upstream", check.Normalised, true, func(up *upstream.Client) (http.Handler, error) { return gqlgen.UpstreamHandler(up), nil }),
		upstreamNetHTTP("graph-gophers-upstream", check.Normalised, false, graphgophers.UpstreamHandler),
	)
	all = append(all, graftUpstreamServers()...)
	all = append(all, nodeServers(true)...)
	return all
}

// Lookup returns the server called name.
func Lookup(name string) (Server, bool) {
	for _, s := range All() {
		if s.Name == name {
			return s, true
		}
	}
	return Server{}, false
}

// netHTTP describes an in-memory server whose handler, built by build,
// runs on a plain net/http server mounted at Path as each library's
// documentation shows.
func netHTTP(name string, mode check.Mode, apq bool, build func(*data.Set) (http.Handler, error)) Server {
	return Server{Name: name, Check: mode, APQ: apq, Handler: build, Serve: func(ctx context.Context, env Env, ready func()) error {
		h, err := build(data.Shared())
		if err != nil {
			return err
		}
		return serveNetHTTP(ctx, env, h, ready)
	}}
}

// upstreamNetHTTP describes an upstream server whose handler, built by
// build, runs on a plain net/http server mounted at Path.
func upstreamNetHTTP(name string, mode check.Mode, apq bool, build func(*upstream.Client) (http.Handler, error)) Server {
	return Server{Name: name, Check: mode, APQ: apq, Upstream: true, UpstreamHandler: build, Serve: func(ctx context.Context, env Env, ready func()) error {
		if env.Upstream == nil {
			return errors.New(name + " needs the upstream service (-upstream URL)")
		}
		h, err := build(env.Upstream)
		if err != nil {
			return err
		}
		return serveNetHTTP(ctx, env, h, ready)
	}}
}

func serveNetHTTP(ctx context.Context, env Env, h http.Handler, ready func()) error {
	mux := http.NewServeMux()
	mux.Handle(Path, h)
	ln, err := net.Listen("tcp", net.JoinHostPort(env.Host, strconv.Itoa(env.Port)))
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	ready()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
