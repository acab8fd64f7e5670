//go:build !solo || solo_graphql_go

package servers

import (
	"github.com/graftgql/graft/bench/check"
	"github.com/graftgql/graft/bench/peers/graphqlgo"
)

func init() {
	register(netHTTP("graphql-go", check.Normalised, false, graphqlgo.Handler))
}
