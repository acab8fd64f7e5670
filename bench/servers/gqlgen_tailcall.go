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
	register(s)
}
