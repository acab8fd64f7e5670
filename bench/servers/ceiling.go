//go:build !solo || solo_ceiling

package servers

import (
	"github.com/graftgql/graft/bench/check"
	"github.com/graftgql/graft/bench/peers/ceiling"
)

func init() {
	s := netHTTP("ceiling", check.Exact, true, ceiling.Handler)
	s.Reference = true
	register(s)
}
