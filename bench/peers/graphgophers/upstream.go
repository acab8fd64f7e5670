package graphgophers

import (
	"context"
	"net/http"
	"time"

	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/upstream"
	"github.com/graftgql/graft/bench/workload"
	"github.com/graph-gophers/dataloader/v7"
	graphql "github.com/graph-gophers/graphql-go"
	"github.com/graph-gophers/graphql-go/relay"
)

// UpstreamHandler returns the relay handler for the workload resolved
// through the upstream service: Query.authors with one call, Author.posts
// through a request-scoped graph-gophers/dataloader loader (1 ms wait, as
// gqlgen's dataloadgen is set up; the library's default is 16 ms), put in
// each request's context by a middleware. graphql-go's default parallelism
// (10 resolvers per request at once) applies.
func UpstreamHandler(up *upstream.Client) (http.Handler, error) {
	s, err := graphql.ParseSchema(workload.SDL, &upstreamQuery{up: up})
	if err != nil {
		return nil, err
	}
	h := &relay.Handler{Schema: s}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := context.WithValue(r.Context(), loaderKey{}, newPostsLoader(up))
		h.ServeHTTP(w, r.WithContext(ctx))
	}), nil
}

type loaderKey struct{}

// postsKey asks for one author's first posts.
type postsKey struct {
	author string
	first  int
}

type postsLoader = dataloader.Loader[postsKey, []*data.Post]

func newPostsLoader(up *upstream.Client) *postsLoader {
	batch := func(ctx context.Context, keys []postsKey) []*dataloader.Result[[]*data.Post] {
		out := make([]*dataloader.Result[[]*data.Post], len(keys))
		// One upstream call per distinct first in the batch.
		byFirst := map[int][]string{}
		for _, k := range keys {
			byFirst[k.first] = append(byFirst[k.first], k.author)
		}
		got := map[int]map[string][]*data.Post{}
		for first, ids := range byFirst {
			var m map[string][]*data.Post
			if err := up.GetJSON(ctx, "/posts", upstream.PostsQuery(ids, first), &m); err != nil {
				for i := range out {
					out[i] = &dataloader.Result[[]*data.Post]{Error: err}
				}
				return out
			}
			got[first] = m
		}
		for i, k := range keys {
			ps := got[k.first][k.author]
			if ps == nil {
				ps = []*data.Post{}
			}
			out[i] = &dataloader.Result[[]*data.Post]{Data: ps}
		}
		return out
	}
	return dataloader.NewBatchedLoader(batch, dataloader.WithWait[postsKey, []*data.Post](time.Millisecond))
}

type upstreamQuery struct{ up *upstream.Client }

// Hello resolves Query.hello.
func (q *upstreamQuery) Hello() string { return "world" }

// Authors resolves Query.authors with one upstream call.
func (q *upstreamQuery) Authors(ctx context.Context, args firstArgs) ([]*upstreamAuthor, error) {
	var as []*data.Author
	if err := q.up.GetJSON(ctx, "/authors", upstream.AuthorsQuery(data.Clamp(toInt(&args.First), data.AuthorCount)), &as); err != nil {
		return nil, err
	}
	out := make([]*upstreamAuthor, len(as))
	for i, a := range as {
		out[i] = &upstreamAuthor{authorResolver{a}}
	}
	return out, nil
}

// Author resolves Query.author with one upstream call.
func (q *upstreamQuery) Author(ctx context.Context, args struct{ ID graphql.ID }) (*upstreamAuthor, error) {
	var as []*data.Author
	if err := q.up.GetJSON(ctx, "/authors", upstream.AuthorsByIDQuery([]string{string(args.ID)}), &as); err != nil || len(as) == 0 {
		return nil, err
	}
	return &upstreamAuthor{authorResolver{as[0]}}, nil
}

// upstreamAuthor resolves Author's scalar fields like authorResolver and
// its posts through the request's loader.
type upstreamAuthor struct{ authorResolver }

// Posts resolves Author.posts through the loader.
func (r *upstreamAuthor) Posts(ctx context.Context, args firstArgs) ([]*postResolver, error) {
	l := ctx.Value(loaderKey{}).(*postsLoader)
	ps, err := l.Load(ctx, postsKey{r.a.ID, data.Clamp(toInt(&args.First), data.PostsPerAuthor)})()
	if err != nil {
		return nil, err
	}
	out := make([]*postResolver, len(ps))
	for i, p := range ps {
		out[i] = &postResolver{p}
	}
	return out, nil
}
