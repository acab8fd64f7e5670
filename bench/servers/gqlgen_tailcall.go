//go:build !solo || solo_gqlgen_tailcall

package servers

import (
	"net/http"

	"github.com/graftgql/graft/bench/check"
	"github.com/graftgql/graft/bench/peers/gqlgentailcall"
	"github.com/graftgql/graft/bench/upstream"
)

func init() {
	s := upstreamNetHTTP("gqlgen-tailcall", check.Exact, false, func(up *upstream.Client) (http.Handler, error) { return gqlgentailcall.Handler(up), nil })
	s.Tailcall = true
	// The posts, then the users in one call per 1 ms window: one, unless
	// the loads of the 100 posts spread over more than one window.
	s.UpstreamCalls = map[string][2]int64{"q7": {2, 11}}
	register(s)
}
