//go:build !solo || solo_graft_upstream

package servers

import (
	"context"

	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/upstream"
	"github.com/graftgql/graft/schema"
)

func init() {
	s := graftUpstream("graft-upstream", graftBatchUpstreamSchema)
	s.UpstreamCalls = map[string][2]int64{"q5": {2, 2}, "q6": {2, 2}}
	register(s)
}

// graftBatchUpstreamSchema resolves Author.posts with a batch resolver:
// every author of the response at that place in one call, so q5 and q6
// cost two upstream calls (authors, then one posts call per level). The
// answers are decoded with encoding/json, as in the plain version.
func graftBatchUpstreamSchema(up *upstream.Client) (*schema.Schema, error) {
	b := schema.New()
	upstreamRoots(b, up)
	author := schema.Object[upAuthor](b, "Author")
	schema.GroupFieldFunc(author, "posts", func(ctx context.Context, parents []*upAuthor, args upPageArgs) ([][]upPost, []error) {
		ids := make([]string, len(parents))
		for i, a := range parents {
			ids[i] = string(a.ID)
		}
		var m map[string][]upPost
		if err := up.GetJSON(ctx, "/posts", upstream.PostsQuery(ids, data.Clamp(args.First, data.PostsPerAuthor)), &m); err != nil {
			return nil, batchError(len(parents), err)
		}
		out := make([][]upPost, len(parents))
		for i, id := range ids {
			if ps := m[id]; ps != nil {
				out[i] = ps
			} else {
				out[i] = []upPost{}
			}
		}
		return out, nil
	})
	schema.Object[upPost](b, "Post")
	return b.Build()
}
