//go:build !solo || solo_graft_upstream_raw

package servers

import (
	"context"

	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/upstream"
	"github.com/graftgql/graft/schema"
)

func init() {
	s := graftUpstream("graft-upstream-raw", graftRawUpstreamSchema)
	s.UpstreamCalls = map[string][2]int64{"q5": {2, 2}, "q6": {2, 2}}
	register(s)
}

// graftRawUpstreamSchema is graftBatchUpstreamSchema with Author.posts
// returning the upstream's JSON as it came (schema.RawJSON): the batch
// resolver splits the one answer into each author's member without
// decoding it, and graft writes the selected fields of the posts straight
// from those bytes. The authors, a small answer with resolvers below
// them, are decoded.
func graftRawUpstreamSchema(up *upstream.Client) (*schema.Schema, error) {
	b := schema.New()
	upstreamRoots(b, up)
	author := schema.Object[upAuthor](b, "Author")
	schema.GroupFieldFunc(author, "posts", func(ctx context.Context, parents []*upAuthor, args upPageArgs) ([]schema.RawJSON, []error) {
		ids := make([]string, len(parents))
		for i, a := range parents {
			ids[i] = string(a.ID)
		}
		body, err := up.Get(ctx, "/posts", upstream.PostsQuery(ids, data.Clamp(args.First, data.PostsPerAuthor)))
		if err != nil {
			return nil, batchError(len(parents), err)
		}
		byAuthor, err := schema.RawJSONMembers(body)
		if err != nil {
			return nil, batchError(len(parents), err)
		}
		out := make([]schema.RawJSON, len(parents))
		for i, id := range ids {
			if ps := byAuthor[id]; ps != nil {
				out[i] = ps
			} else {
				out[i] = schema.RawJSON("[]")
			}
		}
		return out, nil
	}, schema.OfType("[Post!]!"))
	schema.Object[upPost](b, "Post")
	return b.Build()
}
