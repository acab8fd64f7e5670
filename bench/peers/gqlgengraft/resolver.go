package gqlgengraft

import (
	"context"

	"github.com/graftgql/graft/bench/data"
)

// Resolver is the root resolver of the generated executable schema.
type Resolver struct {
	Data *data.Set
}

// Posts is the resolver for the posts field.
func (r *authorResolver) Posts(ctx context.Context, obj *data.Author, first *int) ([]*data.Post, error) {
	return obj.PostsFirst(first), nil
}

// Hello is the resolver for the hello field.
func (r *queryResolver) Hello(ctx context.Context) (string, error) {
	return "world", nil
}

// Authors is the resolver for the authors field.
func (r *queryResolver) Authors(ctx context.Context, first *int) ([]*data.Author, error) {
	return r.Data.AuthorsFirst(first), nil
}

// Author is the resolver for the author field.
func (r *queryResolver) Author(ctx context.Context, id string) (*data.Author, error) {
	return r.Data.Author(id), nil
}

// Author returns AuthorResolver implementation.
func (r *Resolver) Author() AuthorResolver { return &authorResolver{r} }

// Query returns QueryResolver implementation.
func (r *Resolver) Query() QueryResolver { return &queryResolver{r} }

type (
	authorResolver struct{ *Resolver }
	queryResolver  struct{ *Resolver }
)
