//go:build !solo || solo_graft_tailcall_dedupe

package servers

import (
	"context"

	"github.com/graftgql/graft/bench/upstream"
	"github.com/graftgql/graft/loader"
	"github.com/graftgql/graft/schema"
)

func init() { register(graftTailcall("graft-tailcall-dedupe", graftTailcallDedupeSchema)) }

// graftTailcallDedupeSchema is graft-tailcall-raw with its upstream calls
// deduplicated across requests (loader.Shared, one per resource for the
// process): requests that ask for /tc/posts, or for the same user, while
// another request's call is in flight wait for that call instead of
// making their own. The upstream's answers do not depend on the caller,
// so there is no scope.
func graftTailcallDedupeSchema(up *upstream.Client) (*schema.Schema, error) {
	posts := loader.NewShared(func(ctx context.Context, keys []struct{}) ([]schema.RawJSON, []error) {
		b, err := up.Get(ctx, "/tc/posts", nil)
		if err != nil {
			return nil, batchError(len(keys), err)
		}
		out := make([]schema.RawJSON, len(keys))
		for i := range out {
			out[i] = b
		}
		return out, nil
	}, loader.SharedOptions{})
	users := loader.NewShared(func(ctx context.Context, ids []int) ([]schema.RawJSON, []error) {
		byID, err := rawUsers(ctx, up, ids)
		if err != nil {
			return nil, batchError(len(ids), err)
		}
		out := make([]schema.RawJSON, len(ids))
		for i, id := range ids {
			out[i] = byID[id]
		}
		return out, nil
	}, loader.SharedOptions{})
	return graftTailcallRawSchema(
		func(ctx context.Context) (schema.RawJSON, error) { return posts.Load(ctx, struct{}{}) },
		func(ctx context.Context, ids []int) (map[int]schema.RawJSON, error) {
			vals, errs := users.Fetch(ctx, ids)
			out := make(map[int]schema.RawJSON, len(ids))
			for i, id := range ids {
				if i < len(errs) && errs[i] != nil {
					return nil, errs[i]
				}
				out[id] = vals[i]
			}
			return out, nil
		})
}
