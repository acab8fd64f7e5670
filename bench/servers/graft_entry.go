//go:build !solo || solo_graft

package servers

import (
	"context"
	"net/http"

	"github.com/graftgql/graft/bench/check"
	"github.com/graftgql/graft/bench/data"
)

// graft serves GraftRouter through graft.Serve (net/http).
func init() {
	register(Server{Name: "graft", Check: check.Exact, APQ: true, Handler: graftHandler, Serve: serveGraft})
}

func graftHandler(*data.Set) (http.Handler, error) {
	return GraftRouter()
}

func serveGraft(ctx context.Context, env Env, ready func()) error {
	r, err := GraftRouter()
	if err != nil {
		return err
	}
	return serveGraftRouter(ctx, r, env, ready)
}
