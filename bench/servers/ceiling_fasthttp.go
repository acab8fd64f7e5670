//go:build !solo || solo_ceiling_fasthttp

package servers

import (
	"context"
	"net"
	"strconv"

	"github.com/valyala/fasthttp"

	"github.com/graftgql/graft/bench/check"
	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/peers/ceiling"
)

// ceiling-fasthttp is the ceiling of graft-fasthttp: a fasthttp server
// that answers each workload body with its precomputed answer, found by
// the body's exact bytes, and does nothing else (the ceiling's work
// through fasthttp). No GraphQL server on fasthttp can beat it.
func init() {
	register(Server{Name: "ceiling-fasthttp", Check: check.Exact, APQ: true, Reference: true, Serve: serveCeilingFastHTTP})
}

var (
	ctJSON    = []byte("application/json")
	badQuery  = []byte(`{"errors":[{"message":"unknown query"}]}`)
	graphPath = []byte(Path)
)

func serveCeilingFastHTTP(ctx context.Context, env Env, ready func()) error {
	byBody, err := ceiling.Answers(data.Shared())
	if err != nil {
		return err
	}
	srv := &fasthttp.Server{NoDefaultServerHeader: true, Handler: func(c *fasthttp.RequestCtx) {
		resp, ok := byBody[string(c.PostBody())] // no allocation: the compiler reads the body in place
		if !ok || string(c.Path()) != string(graphPath) {
			c.SetStatusCode(fasthttp.StatusBadRequest)
			c.SetContentTypeBytes(ctJSON)
			c.SetBody(badQuery)
			return
		}
		c.SetContentTypeBytes(ctJSON)
		c.SetBody(resp)
	}}
	ln, err := net.Listen("tcp", net.JoinHostPort(env.Host, strconv.Itoa(env.Port)))
	if err != nil {
		return err
	}
	ready()
	go func() {
		<-ctx.Done()
		_ = srv.Shutdown()
	}()
	return srv.Serve(ln)
}
