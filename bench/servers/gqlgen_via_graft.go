//go:build !solo || solo_gqlgen_via_graft

package servers

import (
	"net/http"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/bench/check"
	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/peers/gqlgengraft"
	"github.com/graftgql/graft/persisted"
)

// gqlgen-via-graft is the gqlgen peer's project (gqlgen.yml, schema,
// models, resolvers) with its generated code deleted, bound by the gqlgen
// module and served by a graft router configured as native gqlgen's
// handler is: automatic persisted queries on. Graft writes keys in
// selection order, so its answers must match the ceiling's byte for byte.
func init() {
	register(netHTTP("gqlgen-via-graft", check.Exact, true, func(d *data.Set) (http.Handler, error) {
		s, err := gqlgengraft.Schema(d)
		if err != nil {
			return nil, err
		}
		return graft.NewRouter(s, nil, graft.Config{Path: Path, PersistedQueries: &persisted.Options{Mode: persisted.APQ}})
	}))
}
