// Package servers lists every server the benchmark compares, under the
// names the load generator passes to `bench serve -server NAME`.
//
// Each Go server is registered by a file of its own, built unless the tag
// "solo" is set without that server's tag (SoloTag): `go build -tags
// solo,solo_graft ./cmd/benchserve` makes a binary holding graft alone, as
// a team would deploy it, so that its memory is not the memory of every
// peer linked beside it.
package servers

import (
	"context"
	"errors"
	"net"
	"net/http"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/graftgql/graft/bench/check"
	"github.com/graftgql/graft/bench/data"
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
	// Tailcall says the server serves the Tailcall replica's schema
	// (package tailcall): it runs q7 only, and q7 runs only on it and the
	// ceilings.
	Tailcall bool
	// UpstreamCalls is, by query name, the fewest and the most upstream
	// calls one request alone may cost (checked on every run's first
	// answer); a query not listed is not checked.
	UpstreamCalls map[string][2]int64
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
	// Health, when set, is the path of a Command server that answers 200
	// once it accepts connections, polled instead of waiting for the
	// ready line (cmd/graft's /health); its standard error is read and
	// discarded.
	Health string
}

// Runs says whether s runs query q.
func (s Server) Runs(q workload.Query) bool {
	if q.Persisted && !s.APQ {
		return false
	}
	if q.Tailcall != s.Tailcall {
		return s.Reference
	}
	return q.Upstream == s.Upstream || s.Reference
}

// order is where each server stands in All: the ceilings, the in-memory
// servers, then the upstream servers. Every registered name must be here.
var order = []string{
	"ceiling", "ceiling-decode", "ceiling-fasthttp", "gqlgen", "gqlgen-via-graft", "graph-gophers", "graphql-go",
	"graft", "graft-fasthttp", "graft-shipped", "graft-shipped-nolog", "graft-shipped-metrics", "graft-shipped-tracing",
	"mercurius", "yoga", "apollo",
	"gqlgen-upstream", "graph-gophers-upstream",
	"graft-upstream", "graft-upstream-plain", "graft-upstream-raw",
	"gqlgen-tailcall", "graft-tailcall", "graft-tailcall-raw", "graft-tailcall-dedupe",
	"mercurius-upstream", "yoga-upstream", "apollo-upstream",
}

// registered holds the Go servers compiled into this binary, each added by
// the init function of its own file; registeredIn is that file, for the
// test that checks the build constraints.
var (
	registered   []Server
	registeredIn = map[string]string{}
)

// register adds the Go server s to the list. Each server has a file of its
// own whose build constraint is `!solo || solo_NAME` (SoloTag): the
// ordinary build links every server, a solo build only the one selected.
func register(s Server) {
	if !slices.Contains(order, s.Name) {
		panic("servers: " + s.Name + " is missing from order")
	}
	if _, dup := registeredIn[s.Name]; dup {
		panic("servers: " + s.Name + " registered twice")
	}
	_, file, _, _ := runtime.Caller(1)
	registeredIn[s.Name] = filepath.Base(file)
	registered = append(registered, s)
}

// SoloTag is the build tag that, with the tag "solo", compiles only server
// name into a binary: solo_ followed by the name with each '-' as '_'
// (solo_graft_fasthttp).
func SoloTag(name string) string {
	return "solo_" + strings.ReplaceAll(name, "-", "_")
}

// All returns every server this binary holds, the ceiling first: the
// in-memory servers, then the upstream servers. The Node peers are listed
// only when their packages are installed (`npm ci` in bench/node). A solo
// build (tags solo and SoloTag(name)) holds its one Go server.
func All() []Server {
	all := slices.Clone(registered)
	all = append(all, shippedServers()...)
	all = append(all, nodeServers(false)...)
	all = append(all, nodeServers(true)...)
	slices.SortStableFunc(all, func(a, b Server) int {
		return slices.Index(order, a.Name) - slices.Index(order, b.Name)
	})
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
