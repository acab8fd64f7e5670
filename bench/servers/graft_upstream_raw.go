//go:build !solo || solo_graft_upstream_raw

package servers

import (
	"context"

	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/upstream"
	"github.com/graftgql/graft/schema"
)

func init() { register(graftUpstream("graft-upstream-raw", graftRawUpstreamSchema)) }

// graftRawUpstreamSchema is graftBatchUpstreamSchema with Author.posts
// returning the upstream's JSON as it came (schema.RawJSON): the batch
// resolver splits the one answer into each author's member without
// decoding it, and graft writes the selected fields of the posts straight
// from those bytes. The authors, a small answer with resolvers below
// them, are decoded.
func graftRawUpstreamSchema(up *upstream.Client) (*schema.Schema, error) {
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(context.Context) (string, error) { return "world", nil })
	schema.Query(b, "authors", func(ctx context.Context, args upPageArgs) ([]upAuthor, error) {
		var as []upAuthor
		err := up.GetJSON(ctx, "/authors", upstream.AuthorsQuery(data.Clamp(args.First, data.AuthorCount)), &as)
		return as, err
	})
	schema.Query(b, "author", func(ctx context.Context, args upAuthorArgs) (*upAuthor, error) {
		var as []upAuthor
		if err := up.GetJSON(ctx, "/authors", upstream.AuthorsByIDQuery([]string{string(args.ID)}), &as); err != nil || len(as) == 0 {
			return nil, err
		}
		return &as[0], nil
	})
	author := schema.Object[upAuthor](b, "Author")
	schema.BatchFieldFunc(author, "posts", func(ctx context.Context, parents []*upAuthor, args upPageArgs) ([]schema.RawJSON, []error) {
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
