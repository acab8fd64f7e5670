//go:build !solo || solo_graft_tailcall || solo_graft_tailcall_raw || solo_graft_tailcall_dedupe

package servers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/bench/check"
	"github.com/graftgql/graft/bench/tailcall"
	"github.com/graftgql/graft/bench/upstream"
	"github.com/graftgql/graft/schema"
)

// graft's servers of q7, the Tailcall replica (package tailcall), each an
// entry in a file of its own: graft-tailcall (graft_tailcall.go: the
// answers decoded into structs, Post.user a group resolver),
// graft-tailcall-raw (graft_tailcall_raw.go: the upstream's JSON served
// as schema.RawJSON, Post.user a raw group resolver reading each post's
// userId from its bytes) and graft-tailcall-dedupe
// (graft_tailcall_dedupe.go: the raw server with its upstream calls
// deduplicated across requests by loader.Shared). This file holds what
// they share. The targets of cmd/bench judge them on q7.

// graftTailcall describes graft serving the q7 schema built by build with
// graft.Serve (net/http) and graft's default configuration.
func graftTailcall(name string, build func(*upstream.Client) (*schema.Schema, error)) Server {
	router := func(up *upstream.Client) (*graft.Router, error) {
		s, err := build(up)
		if err != nil {
			return nil, err
		}
		return graft.NewRouter(s, nil, graft.Config{Path: Path})
	}
	return Server{
		Name: name, Check: check.Exact, Upstream: true, Tailcall: true,
		// The posts, then every distinct user in one call.
		UpstreamCalls:   map[string][2]int64{"q7": {2, 2}},
		UpstreamHandler: func(up *upstream.Client) (http.Handler, error) { return router(up) },
		Serve: func(ctx context.Context, env Env, ready func()) error {
			if env.Upstream == nil {
				return errors.New(name + " needs the upstream service (-upstream URL)")
			}
			r, err := router(env.Upstream)
			if err != nil {
				return err
			}
			return serveGraftRouter(ctx, r, env, ready)
		},
	}
}

// rawUsers fetches the users named by ids (each once) in one call and
// returns each one's JSON by id, undecoded.
func rawUsers(ctx context.Context, up *upstream.Client, ids []int) (map[int]schema.RawJSON, error) {
	body, err := up.Get(ctx, "/tc/users", upstream.UsersQuery(ids))
	if err != nil {
		return nil, err
	}
	elems, err := schema.RawJSONElements(body)
	if err != nil {
		return nil, err
	}
	out := make(map[int]schema.RawJSON, len(elems))
	for _, e := range elems {
		id, err := rawInt(schema.RawMember(e, "id"))
		if err != nil {
			return nil, err
		}
		out[id] = e
	}
	return out, nil
}

// rawInt reads a JSON integer.
func rawInt(b schema.RawJSON) (int, error) {
	n, err := strconv.Atoi(string(b))
	if err != nil {
		return 0, fmt.Errorf("upstream: not an integer: %.20q", b)
	}
	return n, nil
}

// rawUserIDs reads each raw post's userId, and returns them with the
// distinct ones in order of first appearance.
func rawUserIDs(posts []schema.RawJSON) (each, distinct []int, err error) {
	each = make([]int, len(posts))
	for i, p := range posts {
		if each[i], err = rawInt(schema.RawMember(p, "userId")); err != nil {
			return nil, nil, err
		}
		if !slices.Contains(distinct, each[i]) {
			distinct = append(distinct, each[i])
		}
	}
	return each, distinct, nil
}

// graftTailcallRawSchema serves the upstream's JSON as it came
// (schema.RawJSON): Query.posts returns the /tc/posts answer, and
// Post.user is a raw group resolver that reads each post's userId from
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
	schema.RawGroupFieldFuncNoArgs(post, "user", func(ctx context.Context, parents []schema.RawJSON) ([]schema.RawJSON, []error) {
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
