//go:build !solo || solo_graft_upstream_plain

package servers

import (
	"context"

	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/upstream"
	"github.com/graftgql/graft/schema"
)

func init() { register(graftUpstream("graft-upstream-plain", graftPlainUpstreamSchema)) }

// graftPlainUpstreamSchema resolves every field with a plain resolver that
// decodes the upstream's JSON with encoding/json: Query.authors with one
// call, Author.posts with one call per author, run side by side
// (schema.Concurrent), so q5 costs 51 upstream calls.
func graftPlainUpstreamSchema(up *upstream.Client) (*schema.Schema, error) {
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
