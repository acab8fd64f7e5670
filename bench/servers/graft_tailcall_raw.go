//go:build !solo || solo_graft_tailcall_raw

package servers

import (
	"context"

	"github.com/graftgql/graft/bench/tailcall"
	"github.com/graftgql/graft/bench/upstream"
	"github.com/graftgql/graft/schema"
)

func init() {
	register(graftTailcall("graft-tailcall-raw", func(up *upstream.Client) (*schema.Schema, error) {
		posts := func(ctx context.Context) (schema.RawJSON, error) { return up.Get(ctx, "/tc/posts", nil) }
		return graftTailcallRawSchema(posts, func(ctx context.Context, ids []int) (map[int]schema.RawJSON, error) {
			return rawUsers(ctx, up, ids)
		})
	}))
}

// graftTailcallRawSchema serves the upstream's JSON as it came
// (schema.RawJSON): Query.posts returns the /tc/posts answer, and
// Post.user is a raw batch resolver that reads each post's userId from
// its bytes (schema.RawMember) and fetches the distinct users in one
// call, handing each post its user's bytes; graft writes the selected
// fields from the bytes, each user once per request. Nothing is decoded
// into Go values. posts and users make the upstream calls (directly, or
// through loader.Shared in graft-tailcall-dedupe).
func graftTailcallRawSchema(
	posts func(ctx context.Context) (schema.RawJSON, error),
	users func(ctx context.Context, ids []int) (map[int]schema.RawJSON, error),
) (*schema.Schema, error) {
	b := schema.New()
	schema.QueryNoArgs(b, "posts", posts, schema.OfType("[Post!]!"))
	post := schema.Object[tailcall.Post](b, "Post")
	schema.RawBatchFieldFuncNoArgs(post, "user", func(ctx context.Context, parents []schema.RawJSON) ([]schema.RawJSON, []error) {
		each, ids, err := rawUserIDs(parents)
		if err != nil {
			return nil, batchError(len(parents), err)
		}
		byID, err := users(ctx, ids)
		if err != nil {
			return nil, batchError(len(parents), err)
		}
		out := make([]schema.RawJSON, len(parents))
		for i, id := range each {
			out[i] = byID[id]
		}
		return out, nil
	}, schema.OfType("User"))
	schema.Object[tailcall.User](b, "User")
	return b.Build()
}
