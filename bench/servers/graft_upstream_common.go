//go:build !solo || solo_graft_upstream || solo_graft_upstream_plain || solo_graft_upstream_raw

package servers

import (
	"context"
	"errors"
	"net/http"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/bench/check"
	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/upstream"
	"github.com/graftgql/graft/persisted"
	"github.com/graftgql/graft/schema"
)

// graft's resolver wiring for the upstream queries (q5, q6) is one schema
// function per way of resolving, each an entry in a file of its own:
// graft-upstream (graft_upstream.go: a batch resolver, decoding into
// structs), graft-upstream-plain (graft_upstream_plain.go: one call per
// author) and graft-upstream-raw (graft_upstream_raw.go: a batch resolver
// returning the upstream's JSON as schema.RawJSON). This file holds what
// they share. The targets of cmd/bench judge "graft-upstream" on q5
// and "graft-upstream-raw" against "graft-upstream" on q6.

// graftUpstream describes graft serving the schema built by build with
// graft.Serve (net/http), with the configuration of the in-memory entry.
func graftUpstream(name string, build func(*upstream.Client) (*schema.Schema, error)) Server {
	router := func(up *upstream.Client) (*graft.Router, error) {
		s, err := build(up)
		if err != nil {
			return nil, err
		}
		return graft.NewRouter(s, nil, graft.Config{Path: Path, PersistedQueries: &persisted.Options{Mode: persisted.APQ}})
	}
	return Server{
		Name: name, Check: check.Exact, APQ: true, Upstream: true,
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

// upAuthor and upPost are what graft's plain resolvers decode the
// upstream's JSON into.
type upAuthor struct {
	ID    schema.ID `json:"id"`
	Name  string    `json:"name"`
	Email string    `json:"email"`
}

type upPost struct {
	ID    schema.ID `json:"id"`
	Title string    `json:"title"`
	Body  string    `json:"body"`
	Likes int       `json:"likes"`
	Tags  []string  `json:"tags"`
}

type upPageArgs struct {
	First *int `default:"10"`
}

type upAuthorArgs struct {
	ID schema.ID
}

// upstreamRoots declares the root fields every graft upstream server
// shares: hello, and the authors decoded from the upstream's JSON.
func upstreamRoots(b *schema.Builder, up *upstream.Client) {
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
}
