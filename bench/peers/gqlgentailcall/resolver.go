// Package gqlgentailcall is gqlgen's server of q7, the Tailcall replica
// (package tailcall), written as gqlgen's documentation writes one over a
// REST API: Query.posts with one upstream call, Post.user through a
// request-scoped dataloadgen loader with a 1 ms wait, put in the context
// by a middleware. generated.go and models_gen.go are gqlgen's output for
// schema.graphql, a copy of tailcall.SDL (`go run
// github.com/99designs/gqlgen@v0.17.98 generate` in this folder).
package gqlgentailcall

import (
	"context"
	"net/http"
	"time"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/graftgql/graft/bench/tailcall"
	"github.com/graftgql/graft/bench/upstream"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vikstrous/dataloadgen"
)

// queryCacheSize is the size of the parsed-query cache, as the other
// gqlgen peers set it.
const queryCacheSize = 1000

// Handler returns gqlgen's handler of q7 over the upstream service.
func Handler(up *upstream.Client) http.Handler {
	srv := handler.New(NewExecutableSchema(Config{Resolvers: &Resolver{up: up}}))
	srv.AddTransport(transport.POST{})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](queryCacheSize))
	srv.Use(extension.Introspection{})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := context.WithValue(r.Context(), usersKey{}, newUsers(up))
		srv.ServeHTTP(w, r.WithContext(ctx))
	})
}

type usersKey struct{}

// newUsers is one request's loader of users by id: every id asked for
// within 1 ms in one upstream call.
func newUsers(up *upstream.Client) *dataloadgen.Loader[int, *tailcall.User] {
	fetch := func(ctx context.Context, ids []int) ([]*tailcall.User, []error) {
		var us []*tailcall.User
		if err := up.GetJSON(ctx, "/tc/users", upstream.UsersQuery(ids), &us); err != nil {
			return nil, []error{err}
		}
		byID := make(map[int]*tailcall.User, len(us))
		for _, u := range us {
			byID[u.ID] = u
		}
		out := make([]*tailcall.User, len(ids))
		for i, id := range ids {
			out[i] = byID[id]
		}
		return out, nil
	}
	return dataloadgen.NewLoader(fetch, dataloadgen.WithWait(time.Millisecond))
}

// Resolver resolves the schema's fields through the upstream service.
type Resolver struct{ up *upstream.Client }

// User resolves Post.user through the request's loader.
func (r *postResolver) User(ctx context.Context, obj *tailcall.Post) (*tailcall.User, error) {
	return ctx.Value(usersKey{}).(*dataloadgen.Loader[int, *tailcall.User]).Load(ctx, obj.UserID)
}

// Posts resolves Query.posts with one upstream call.
func (r *queryResolver) Posts(ctx context.Context) ([]*tailcall.Post, error) {
	var ps []*tailcall.Post
	err := r.up.GetJSON(ctx, "/tc/posts", nil, &ps)
	return ps, err
}

// Post returns PostResolver implementation.
func (r *Resolver) Post() PostResolver { return &postResolver{r} }

// Query returns QueryResolver implementation.
func (r *Resolver) Query() QueryResolver { return &queryResolver{r} }

type (
	postResolver  struct{ *Resolver }
	queryResolver struct{ *Resolver }
)
