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
)

// Path is the URL path every server answers GraphQL on.
const Path = "/graphql"

// Server is one benchmarked server.
type Server struct {
	// Name identifies the server in commands and reports.
	Name string
	// Check is how strictly its answers are compared with the ceiling's.
	Check check.Mode
	// APQ says the server answers automatic persisted queries.
	APQ bool
	// Handler builds the server's net/http handler for Path; nil for
	// servers that do not run on net/http.
	Handler func(*data.Set) (http.Handler, error)
	// Serve listens on host:port, calls ready once it accepts connections,
	// and serves until ctx is done.
	Serve func(ctx context.Context, host string, port int, ready func()) error
}

// All returns every server, the ceiling first.
func All() []Server {
	return append([]Server{
		netHTTP("ceiling", check.Exact, true, ceiling.Handler),
		netHTTP("gqlgen", check.Normalised, true, func(d *data.Set) (http.Handler, error) { return gqlgen.Handler(d), nil }),
		netHTTP("graph-gophers", check.Normalised, false, graphgophers.Handler),
		netHTTP("graphql-go", check.Normalised, false, graphqlgo.Handler),
	}, graftServers()...)
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

// netHTTP describes a server whose handler, built by build, runs on a plain
// net/http server mounted at Path as each library's documentation shows.
func netHTTP(name string, mode check.Mode, apq bool, build func(*data.Set) (http.Handler, error)) Server {
	return Server{Name: name, Check: mode, APQ: apq, Handler: build, Serve: serveNetHTTP(build)}
}

func serveNetHTTP(build func(*data.Set) (http.Handler, error)) func(ctx context.Context, host string, port int, ready func()) error {
	return func(ctx context.Context, host string, port int, ready func()) error {
		h, err := build(data.Shared())
		if err != nil {
			return err
		}
		mux := http.NewServeMux()
		mux.Handle(Path, h)
		ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
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
}
