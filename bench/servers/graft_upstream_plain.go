//go:build !solo || solo_graft_upstream_plain

package servers

import (
	"context"

	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/upstream"
	"github.com/graftgql/graft/schema"
)

func init() {
	s := graftUpstream("graft-upstream-plain", graftPlainUpstreamSchema)
	s.UpstreamCalls = map[string][2]int64{"q5": {51, 51}, "q6": {51, 51}}
	register(s)
}

// graftPlainUpstreamSchema resolves every field with a plain resolver that
// decodes the upstream's JSON with encoding/json: Query.authors with one
// call, Author.posts with one call per author, run side by side
// (schema.Concurrent), so q5 costs 51 upstream calls.
func graftPlainUpstreamSchema(up *upstream.Client) (*schema.Schema, error) {
	b := schema.New()
	upstreamRoots(b, up)
	author := schema.Object[upAuthor](b, "Author")
	schema.FieldFunc(author, "posts", func(ctx context.Context, a *upAuthor, args upPageArgs) ([]upPost, error) {
		var m map[string][]upPost
		if err := up.GetJSON(ctx, "/posts", upstream.PostsQuery([]string{string(a.ID)}, data.Clamp(args.First, data.PostsPerAuthor)), &m); err != nil {
			return nil, err
		}
		if ps := m[string(a.ID)]; ps != nil {
			return ps, nil
		}
		return []upPost{}, nil
	}, schema.Concurrent())
	schema.Object[upPost](b, "Post")
	return b.Build()
}
