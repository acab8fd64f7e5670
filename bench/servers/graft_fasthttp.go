//go:build !solo || solo_graft_fasthttp

package servers

import (
	"context"

	fasthttpadapter "github.com/graftgql/graft/adapter/fasthttpadapter"
	"github.com/graftgql/graft/bench/check"
)

// graft-fasthttp serves GraftRouter through the fasthttp adapter.
func init() {
	register(Server{Name: "graft-fasthttp", Check: check.Exact, APQ: true, Serve: serveGraftFastHTTP})
}

func serveGraftFastHTTP(ctx context.Context, env Env, ready func()) error {
	r, err := GraftRouter()
	if err != nil {
		return err
	}
	return fasthttpadapter.Serve(ctx, r, fasthttpadapter.ServeOptions{Host: env.Host, Port: env.Port, OnStart: func(string) { ready() }})
}
