package graft

import (
	"context"
	"fmt"
	"net/http"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/graftgql/graft/graphiql"
	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/limits"
	"github.com/graftgql/graft/persisted"
	"github.com/graftgql/graft/schema"
)

// Router serves a schema over HTTP: the GraphQL endpoint at Config.Path
// and, when configured, GraphiQL at its own path. It is an http.Handler,
// so it composes with other routes in one mux and mounts under a prefix
// (with http.StripPrefix or a router's Mount). Do runs the same pipeline
// for hosts that are not net/http.
type Router struct {
	cfg      Config
	schema   *schema.Schema
	layer    *Layer
	engine   *exec.Engine
	docs     *lru.Cache[string, *document]
	pinned   map[string]*document // safelisted documents, prepared at start
	pq       *persisted.PersistedQueries
	graphiql []byte
	subs     *hub // streaming transports: WebSocket, SSE, multipart
}

// document is a prepared document with the limits analysis of each
// operation whose analysis does not depend on variables.
type document struct {
	doc    *exec.Document
	static map[*ast.OperationDefinition]limits.Result
}

// NewRouter returns a Router serving s with the services of layer (nil for
// none) and the given configuration. Invalid configuration, and in
// safelist mode any listed query that does not validate, is an error.
func NewRouter(s *schema.Schema, layer *Layer, cfg Config) (*Router, error) {
	if s == nil {
		return nil, fmt.Errorf("graft: NewRouter: schema is nil")
	}
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if layer == nil {
		layer = NewLayer()
	}
	r := &Router{cfg: cfg, schema: s, layer: layer, subs: newHub(cfg.Subscriptions)}
	r.engine = exec.New(s, exec.Options{
		Logger:               cfg.Logger,
		MaxTokens:            cfg.MaxTokens,
		MaxErrors:            cfg.MaxErrors,
		DisableIntrospection: cfg.DisableIntrospection,
		MaskErrors:           cfg.MaskErrors,
		MaxResponseBytes:     cfg.MaxResponseBytes,
	})
	r.docs, err = lru.New[string, *document](cfg.DocumentCacheSize)
	if err != nil {
		return nil, fmt.Errorf("graft: document cache: %w", err)
	}
	if cfg.PersistedQueries != nil {
		opts := *cfg.PersistedQueries
		if opts.Logger == nil {
			opts.Logger = cfg.Logger
		}
		if r.pq, err = persisted.New(opts); err != nil {
			return nil, err
		}
		if err := r.prepareSafelist(); err != nil {
			return nil, err
		}
	}
	if g := cfg.GraphiQL; g != nil {
		page, err := graphiql.Render(graphiql.Options{Endpoint: g.Endpoint, AssetBaseURL: g.AssetBaseURL, Title: g.Title})
		if err != nil {
			return nil, fmt.Errorf("graft: GraphiQL page: %w", err)
		}
		r.graphiql = page
	}
	return r, nil
}

// ToRouter builds the schema of b and returns a Router serving it.
func ToRouter(b *schema.Builder, layer *Layer, cfg Config) (*Router, error) {
	s, err := b.Build()
	if err != nil {
		return nil, err
	}
	return NewRouter(s, layer, cfg)
}

// NewPersistedQueriesRouter returns a Router with persisted queries on:
// cfg.PersistedQueries, or automatic persisted queries with an in-memory
// store when it is nil.
func NewPersistedQueriesRouter(s *schema.Schema, layer *Layer, cfg Config) (*Router, error) {
	if cfg.PersistedQueries == nil {
		cfg.PersistedQueries = &persisted.Options{Mode: persisted.APQ}
	}
	return NewRouter(s, layer, cfg)
}

// prepareSafelist validates every listed query, so that a bad entry stops
// the start rather than failing requests later.
func (r *Router) prepareSafelist() error {
	entries, ok := r.pq.Entries(context.Background())
	if !ok {
		return nil
	}
	r.pinned = make(map[string]*document, len(entries))
	for hash, query := range entries {
		d, errs := r.prepare(query)
		if errs != nil {
			return fmt.Errorf("graft: safelisted query %s does not validate: %v", hash, errs)
		}
		r.pinned[query] = d
	}
	return nil
}

// Config returns the router's configuration with defaults filled in.
func (r *Router) Config() Config { return r.cfg }

// Layer returns the router's service layer.
func (r *Router) Layer() *Layer { return r.layer }

// Schema returns the schema the router serves.
func (r *Router) Schema() *schema.Schema { return r.schema }

// document returns the prepared document for query, from the cache or
// freshly parsed, validated and planned.
func (r *Router) document(query string) (*document, gqlerror.List) {
	if d, ok := r.pinned[query]; ok {
		return d, nil
	}
	if d, ok := r.docs.Get(query); ok {
		return d, nil
	}
	d, errs := r.prepare(query)
	if errs != nil {
		return nil, errs
	}
	r.docs.Add(query, d)
	return d, nil
}

func (r *Router) prepare(query string) (*document, gqlerror.List) {
	doc, errs := r.engine.Prepare(query)
	if len(errs) > 0 {
		return nil, errs
	}
	// The limits analysis of operations that use no variables is done
	// once here; the others are analysed per request.
	ad := doc.AST()
	d := &document{doc: doc, static: make(map[*ast.OperationDefinition]limits.Result, len(ad.Operations))}
	for _, op := range ad.Operations {
		if !limits.UsesVariables(ad, op) {
			d.static[op] = limits.Analyze(r.schema, ad, op, nil)
		}
	}
	return d, nil
}

var _ http.Handler = (*Router)(nil)
