//go:build !solo || solo_graph_gophers_upstream

package servers

import (
	"github.com/graftgql/graft/bench/check"
	"github.com/graftgql/graft/bench/peers/graphgophers"
)

func init() {
	register(upstreamNetHTTP("graph-gophers-upstream", check.Normalised, false, graphgophers.UpstreamHandler))
}
