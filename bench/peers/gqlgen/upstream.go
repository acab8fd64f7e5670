package gqlgen

import (
	"context"
	"net/http"
	"time"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/upstream"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vikstrous/dataloadgen"
)

// UpstreamHandler returns gqlgen's handler for the workload resolved
// through the upstream service: Query.authors with one call, Author.posts
// through a request-scoped dataloadgen loader with a 1 ms wait, as gqlgen's
// dataloader documentation sets it up (a middleware puts fresh loaders in
// each request's context).
func UpstreamHandler(up *upstream.Client) http.Handler {
	srv := handler.New(NewExecutableSchema(Config{Resolvers: &upstreamResolver{up: up}}))
	srv.AddTransport(transport.POST{})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](QueryCacheSize))
	srv.Use(extension.Introspection{})
	srv.Use(extension.AutomaticPersistedQuery{Cache: lru.New[string](QueryCacheSize)})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := context.WithValue(r.Context(), loadersKey{}, newLoaders(up))
		srv.ServeHTTP(w, r.WithContext(ctx))
	})
}

type loadersKey struct{}

// postsKey asks for one author's first posts.
type postsKey struct {
	author string
	first  int
}

type loaders struct {
	posts *dataloadgen.Loader[postsKey, []*data.Post]
}

func newLoaders(up *upstream.Client) *loaders {
	fetch := func(ctx context.Context, keys []postsKey) ([][]*data.Post, []error) {
		// One upstream call per distinct first in the batch.
		byFirst := map[int][]string{}
		for _, k := range keys {
			byFirst[k.first] = append(byFirst[k.first], k.author)
		}
		got := map[int]map[string][]*data.Post{}
		for first, ids := range byFirst {
			var m map[string][]*data.Post
			if err := up.GetJSON(ctx, "/posts", upstream.PostsQuery(ids, first), &m); err != nil {
				return nil, []error{err}
			}
			got[first] = m
		}
		out := make([][]*data.Post, len(keys))
		for i, k := range keys {
			out[i] = got[k.first][k.author]
			if out[i] == nil {
				out[i] = []*data.Post{}
			}
		}
		return out, nil
	}
	return &loaders{posts: dataloadgen.NewLoader(fetch, dataloadgen.WithWait(time.Millisecond))}
}

type upstreamResolver struct{ up *upstream.Client }

// Author returns the Author resolvers.
func (r *upstreamResolver) Author() AuthorResolver { return upstreamAuthor{r} }

// Query returns the Query resolvers.
func (r *upstreamResolver) Query() QueryResolver { return upstreamQuery{r} }

type upstreamQuery struct{ *upstreamResolver }

// Hello resolves Query.hello.
func (r upstreamQuery) Hello(context.Context) (string, error) { return "world", nil }

// Authors resolves Query.authors with one upstream call.
func (r upstreamQuery) Authors(ctx context.Context, first *int) ([]*data.Author, error) {
	var as []*data.Author
	err := r.up.GetJSON(ctx, "/authors", upstream.AuthorsQuery(data.Clamp(first, data.AuthorCount)), &as)
	return as, err
}

// Author resolves Query.author with one upstream call.
func (r upstreamQuery) Author(ctx context.Context, id string) (*data.Author, error) {
	var as []*data.Author
	if err := r.up.GetJSON(ctx, "/authors", upstream.AuthorsByIDQuery([]string{id}), &as); err != nil || len(as) == 0 {
		return nil, err
	}
	return as[0], nil
}

type upstreamAuthor struct{ *upstreamResolver }

// Posts resolves Author.posts through the request's loader.
func (r upstreamAuthor) Posts(ctx context.Context, obj *data.Author, first *int) ([]*data.Post, error) {
	l := ctx.Value(loadersKey{}).(*loaders)
	return l.posts.Load(ctx, postsKey{obj.ID, data.Clamp(first, data.PostsPerAuthor)})
}
