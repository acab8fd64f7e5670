package graft

import (
	"github.com/graftgql/graft/persisted"
	"github.com/graftgql/graft/schema"
)

// This file holds the shorthands for NewRouter, the one constructor of a
// Router. Each is NewRouter with one step done for the caller.

// ToRouter builds the schema of b and returns NewRouter(s, layer, cfg).
func ToRouter(b *schema.Builder, layer *Layer, cfg Config) (*Router, error) {
	s, err := b.Build()
	if err != nil {
		return nil, err
	}
	return NewRouter(s, layer, cfg)
}

// NewPersistedQueriesRouter returns NewRouter(s, layer, cfg) with persisted
// queries on: cfg.PersistedQueries, or automatic persisted queries with an
// in-memory store when it is nil.
func NewPersistedQueriesRouter(s *schema.Schema, layer *Layer, cfg Config) (*Router, error) {
	if cfg.PersistedQueries == nil {
		cfg.PersistedQueries = &persisted.Options{Mode: persisted.APQ}
	}
	return NewRouter(s, layer, cfg)
}
