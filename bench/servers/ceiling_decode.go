//go:build !solo || solo_ceiling_decode

package servers

import (
	"github.com/graftgql/graft/bench/check"
	"github.com/graftgql/graft/bench/peers/ceiling"
)

func init() {
	s := netHTTP("ceiling-decode", check.Exact, true, ceiling.DecodeHandler)
	s.Reference = true
	register(s)
}
