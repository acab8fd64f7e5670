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

// This file holds graft's resolver wiring for the upstream queries (q5,
// q6), one schema function per way of resolving, each an entry of
// graftUpstreamServers: graft-upstream (a batch resolver, decoding into
// structs), graft-upstream-plain (one call per author) and
// graft-upstream-raw (a batch resolver returning the upstream's JSON as
// schema.RawJSON). The targets of cmd/bench judge "graft-upstream" on q5
// and "graft-upstream-raw" against "graft-upstream" on q6.

// graftUpstreamServers returns graft serving the workload through the
// upstream service.
func graftUpstreamServers() []Server {
	return []Server{
		graftUpstream("graft-upstream", graftBatchUpstreamSchema),
		graftUpstream("graft-upstream-plain", graftPlainUpstreamSchema),
		graftUpstream("graft-upstream-raw", graftRawUpstreamSchema),
	}
}

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

// graftBatchUpstreamSchema resolves Author.posts with a batch resolver:
// every author of the response at that place in one call, so q5 and q6
// cost two upstream calls (authors, then one posts call per level). The
// answers are decoded with encoding/json, as in the plain version.
func graftBatchUpstreamSchema(up *upstream.Client) (*schema.Schema, error) {
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
	schema.BatchFieldFunc(author, "posts", func(ctx context.Context, parents []*upAuthor, args upPageArgs) ([][]upPost, []error) {
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

// batchError is err for each of n parents.
func batchError(n int, err error) []error {
	errs := make([]error, n)
	for i := range errs {
		errs[i] = err
	}
	return errs
}

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
