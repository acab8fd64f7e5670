package blog

import (
	"context"

	"github.com/graftgql/graft/internal/workload"
	"github.com/graftgql/graft/schema"
)

// SDL is the blog schema document, the benchmark's schema (the copy
// internal/workload embeds and keeps equal to ../shared/bench), which
// NewSDLBuilder binds the Go types and resolvers to.
var SDL = workload.SDL

// NewSDLBuilder returns a schema-first builder of the blog schema: the
// document SDL defines the types, fields and arguments (with the default
// of first), and the declarations bind the same Go types, resolvers, costs
// and cache hints as NewBuilder. It serves the same answers.
func NewSDLBuilder() *schema.Builder {
	b := schema.New().SDL("schema.graphql", SDL)
	d := Dataset()
	schema.QueryNoArgs(b, "hello", func(context.Context) (string, error) { return "world", nil }, schema.CacheControl(3600, "PUBLIC"))
	schema.Query(b, "authors", func(_ context.Context, args PageArgs) ([]Author, error) {
		return d.Authors[:page(args.First, NumAuthors)], nil
	}, schema.CostFn(pageCost(NumAuthors)), schema.CacheControl(60, "PUBLIC"))
	schema.Query(b, "author", func(_ context.Context, args AuthorArgs) (*Author, error) {
		return d.byID[args.ID], nil
	}, schema.CacheControl(60, "PUBLIC"))
	author := schema.Object[Author](b, "Author", schema.CacheControl(60, "PUBLIC"))
	schema.GroupFieldFunc(author, "posts", func(_ context.Context, authors []*Author, args PageArgs) ([][]Post, []error) {
		n := page(args.First, PostsPerAuthor)
		out := make([][]Post, len(authors))
		for i, a := range authors {
			out[i] = a.posts[:n]
		}
		return out, nil
	}, schema.CostFn(pageCost(PostsPerAuthor)))
	schema.Object[Post](b, "Post", schema.CacheControl(60, "PUBLIC"))
	return b
}

// SDLSchema builds the schema-first blog schema.
func SDLSchema() (*schema.Schema, error) {
	return NewSDLBuilder().Build()
}
