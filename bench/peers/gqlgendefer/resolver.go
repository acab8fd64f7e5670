// Package gqlgendefer is a gqlgen server for the part of the incremental
// example that the @defer benchmark (bench/incremental) queries: the same
// fields, the same waits. generated.go and models_gen.go are gqlgen's
// output for schema.graphql (gqlgen generate).
package gqlgendefer

import (
	"context"
	"net/http"
	"time"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/transport"
)

// Resolver resolves the schema's fields.
type Resolver struct{}

// SlowField waits delayMs, as the incremental example's Item.slowField.
func (r *itemResolver) SlowField(ctx context.Context, obj *Item, delayMs *int) (string, error) {
	if delayMs != nil && *delayMs > 0 {
		t := time.NewTimer(time.Duration(*delayMs) * time.Millisecond)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	return "slow " + obj.ID, nil
}

// FastField answers at once.
func (r *queryResolver) FastField(ctx context.Context) (string, error) { return "fast", nil }

// Item returns the item with the given id.
func (r *queryResolver) Item(ctx context.Context, id string) (*Item, error) {
	return &Item{ID: id, Name: "Item " + id}, nil
}

// Item returns ItemResolver implementation.
func (r *Resolver) Item() ItemResolver { return &itemResolver{r} }

// Query returns QueryResolver implementation.
func (r *Resolver) Query() QueryResolver { return &queryResolver{r} }

type (
	itemResolver  struct{ *Resolver }
	queryResolver struct{ *Resolver }
)

// Handler serves the schema over POST and, for @defer, multipart/mixed
// (gqlgen's 2022 format).
func Handler() http.Handler {
	srv := handler.New(NewExecutableSchema(Config{Resolvers: &Resolver{}}))
	srv.AddTransport(transport.MultipartMixed{})
	srv.AddTransport(transport.POST{})
	return srv
}
