//go:build !solo || solo_graft_tailcall

package servers

import (
	"context"
	"slices"

	"github.com/graftgql/graft/bench/tailcall"
	"github.com/graftgql/graft/bench/upstream"
	"github.com/graftgql/graft/schema"
)

func init() { register(graftTailcall("graft-tailcall", graftTailcallSchema)) }

// graftTailcallSchema decodes the upstream's JSON into structs with
// encoding/json, as graft's documentation writes a server over a REST
// API: Query.posts with one call, Post.user with a group resolver
// (every post of the level in one call for the distinct users), so q7
// costs two upstream calls.
func graftTailcallSchema(up *upstream.Client) (*schema.Schema, error) {
	b := schema.New()
	schema.QueryNoArgs(b, "posts", func(ctx context.Context) ([]tailcall.Post, error) {
		var ps []tailcall.Post
		err := up.GetJSON(ctx, "/tc/posts", nil, &ps)
		return ps, err
	})
	post := schema.Object[tailcall.Post](b, "Post")
	schema.GroupFieldFuncNoArgs(post, "user", func(ctx context.Context, parents []*tailcall.Post) ([]*tailcall.User, []error) {
		var ids []int
		for _, p := range parents {
			if !slices.Contains(ids, p.UserID) {
				ids = append(ids, p.UserID)
			}
		}
		var us []tailcall.User
		if err := up.GetJSON(ctx, "/tc/users", upstream.UsersQuery(ids), &us); err != nil {
			return nil, batchError(len(parents), err)
		}
		byID := make(map[int]*tailcall.User, len(us))
		for i := range us {
			byID[us[i].ID] = &us[i]
		}
		out := make([]*tailcall.User, len(parents))
		for i, p := range parents {
			out[i] = byID[p.UserID]
		}
		return out, nil
	})
	schema.Object[tailcall.User](b, "User")
	return b.Build()
}
