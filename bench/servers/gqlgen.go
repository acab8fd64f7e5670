//go:build !solo || solo_gqlgen

package servers

import (
	"net/http"

	"github.com/graftgql/graft/bench/check"
	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/peers/gqlgen"
)

func init() {
	register(netHTTP("gqlgen", check.Normalised, true, func(d *data.Set) (http.Handler, error) { return gqlgen.Handler(d), nil }))
}
