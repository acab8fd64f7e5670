//go:build !solo || solo_graft || solo_graft_upstream || solo_graft_upstream_plain || solo_graft_upstream_raw || solo_graft_tailcall || solo_graft_tailcall_raw || solo_graft_tailcall_dedupe

package servers

import (
	"context"

	"github.com/graftgql/graft"
)

// serveGraftRouter serves r with graft.Serve (net/http).
func serveGraftRouter(ctx context.Context, r *graft.Router, env Env, ready func()) error {
	return graft.Serve(ctx, r, graft.ServeOptions{Host: env.Host, Port: env.Port, OnStart: func(string) { ready() }})
}
