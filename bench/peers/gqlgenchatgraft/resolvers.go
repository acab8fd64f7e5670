// Package gqlgenchatgraft is the gqlgen chat peer of ../gqlgenchat with
// generated.go deleted, served by graft through the gqlgen module: the
// same gqlgen.yml, schema, models and resolver.go. The resolver
// interfaces that generated.go declared, which resolver.go names, are
// kept here by hand; the DateTime scalar is given to Load by gqlgen's
// MarshalTime and UnmarshalTime, as gqlgen.yml maps it to graphql.Time.
package gqlgenchatgraft

import (
	"context"
	"path/filepath"
	"runtime"

	"github.com/99designs/gqlgen/graphql"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/gqlgen"
)

// QueryResolver resolves the fields of Query.
type QueryResolver interface {
	Messages(ctx context.Context, room string, last *int) ([]*Message, error)
}

// MutationResolver resolves the fields of Mutation.
type MutationResolver interface {
	PostMessage(ctx context.Context, room, author, text string) (*Message, error)
}

// SubscriptionResolver resolves the fields of Subscription.
type SubscriptionResolver interface {
	MessageAdded(ctx context.Context, room string) (<-chan *Message, error)
	Countdown(ctx context.Context, from int) (<-chan int, error)
}

// Router serves a new, empty chat with graft, with cfg.
func Router(cfg graft.Config) (*graft.Router, error) {
	_, file, _, _ := runtime.Caller(0)
	p, err := gqlgen.Load(filepath.Join(filepath.Dir(file), "gqlgen.yml"), NewResolver(),
		gqlgen.Scalar("DateTime", graphql.MarshalTime, graphql.UnmarshalTime))
	if err != nil {
		return nil, err
	}
	s, err := p.Build()
	if err != nil {
		return nil, err
	}
	return graft.NewRouter(s, nil, cfg)
}
