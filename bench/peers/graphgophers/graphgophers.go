// Package graphgophers serves the benchmark workload with
// github.com/graph-gophers/graphql-go and its relay HTTP handler.
package graphgophers

import (
	"net/http"

	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/workload"
	graphql "github.com/graph-gophers/graphql-go"
	"github.com/graph-gophers/graphql-go/relay"
)

// Schema parses the workload schema with resolvers over d.
func Schema(d *data.Set) (*graphql.Schema, error) {
	return graphql.ParseSchema(workload.SDL, &queryResolver{d: d})
}

// Handler returns the relay handler for the workload.
func Handler(d *data.Set) (http.Handler, error) {
	s, err := Schema(d)
	if err != nil {
		return nil, err
	}
	return &relay.Handler{Schema: s}, nil
}

type queryResolver struct{ d *data.Set }

// firstArgs holds the first argument. graph-gophers v1.11.0 refuses a
// pointer for an argument with a default, so an explicit null cannot be
// told from 0 here; the workload never sends one.
type firstArgs struct{ First int32 }

func toInt(p *int32) *int {
	n := int(*p)
	return &n
}

// Hello resolves Query.hello.
func (q *queryResolver) Hello() string { return "world" }

// Authors resolves Query.authors.
func (q *queryResolver) Authors(args firstArgs) []*authorResolver {
	as := q.d.AuthorsFirst(toInt(&args.First))
	out := make([]*authorResolver, len(as))
	for i, a := range as {
		out[i] = &authorResolver{a}
	}
	return out
}

// Author resolves Query.author.
func (q *queryResolver) Author(args struct{ ID graphql.ID }) *authorResolver {
	a := q.d.Author(string(args.ID))
	if a == nil {
		return nil
	}
	return &authorResolver{a}
}

type authorResolver struct{ a *data.Author }

// ID resolves Author.id.
func (r *authorResolver) ID() graphql.ID { return graphql.ID(r.a.ID) }

// Name resolves Author.name.
func (r *authorResolver) Name() string { return r.a.Name }

// Email resolves Author.email.
func (r *authorResolver) Email() string { return r.a.Email }

// Posts resolves Author.posts.
func (r *authorResolver) Posts(args firstArgs) []*postResolver {
	ps := r.a.PostsFirst(toInt(&args.First))
	out := make([]*postResolver, len(ps))
	for i, p := range ps {
		out[i] = &postResolver{p}
	}
	return out
}

type postResolver struct{ p *data.Post }

// ID resolves Post.id.
func (r *postResolver) ID() graphql.ID { return graphql.ID(r.p.ID) }

// Title resolves Post.title.
func (r *postResolver) Title() string { return r.p.Title }

// Body resolves Post.body.
func (r *postResolver) Body() string { return r.p.Body }

// Likes resolves Post.likes.
func (r *postResolver) Likes() int32 { return int32(r.p.Likes) }

// Tags resolves Post.tags.
func (r *postResolver) Tags() []string { return r.p.Tags }
