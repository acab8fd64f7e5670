//go:build !solo || solo_graft_tailcall_raw

package servers

import (
	"context"

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
