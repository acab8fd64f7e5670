//go:build !solo || solo_graph_gophers

package servers

import (
	"github.com/graftgql/graft/bench/check"
	"github.com/graftgql/graft/bench/peers/graphgophers"
)

func init() {
	register(netHTTP("graph-gophers", check.Normalised, false, graphgophers.Handler))
}
