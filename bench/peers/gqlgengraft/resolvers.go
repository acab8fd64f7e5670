// Package gqlgengraft is the gqlgen peer of ../gqlgen with generated.go
// deleted, served by graft through the gqlgen module: the same
// gqlgen.yml, schema, models and resolver.go. The resolver interfaces
// that generated.go declared, which resolver.go names, are kept here by
// hand.
package gqlgengraft

import (
	"context"
	"path/filepath"
	"runtime"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/gqlgen"
	"github.com/graftgql/graft/schema"
)

// AuthorResolver resolves the fields of Author that gqlgen.yml marks as
// resolvers.
type AuthorResolver interface {
	Posts(ctx context.Context, obj *data.Author, first *int) ([]*data.Post, error)
}

// QueryResolver resolves the fields of Query.
type QueryResolver interface {
	Hello(ctx context.Context) (string, error)
	Authors(ctx context.Context, first *int) ([]*data.Author, error)
	Author(ctx context.Context, id string) (*data.Author, error)
}

// Schema binds the project over d: gqlgen.yml, its schema, the models
// and the resolvers, without generated code.
func Schema(d *data.Set) (*schema.Schema, error) {
	_, file, _, _ := runtime.Caller(0)
	p, err := gqlgen.Load(filepath.Join(filepath.Dir(file), "gqlgen.yml"), &Resolver{Data: d})
	if err != nil {
		return nil, err
	}
	return p.Build()
}

// Router serves the project over d with graft's default configuration.
func Router(d *data.Set) (*graft.Router, error) {
	s, err := Schema(d)
	if err != nil {
		return nil, err
	}
	return graft.NewRouter(s, nil, graft.Config{})
}
