//go:build !solo || solo_gqlgen_upstream

package servers

import (
	"net/http"

	"github.com/graftgql/graft/bench/check"
	"github.com/graftgql/graft/bench/peers/gqlgen"
	"github.com/graftgql/graft/bench/upstream"
)

func init() {
	register(upstreamNetHTTP("gqlgen-upstream", check.Normalised, true, func(up *upstream.Client) (http.Handler, error) { return gqlgen.UpstreamHandler(up), nil }))
}
