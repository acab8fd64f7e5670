package graft

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/graftgql/graft/graphiql"
	"github.com/graftgql/graft/internal/costlru"
	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/internal/httpapi"
	"github.com/graftgql/graft/internal/pqstate"
	"github.com/graftgql/graft/internal/schemadef"
	"github.com/graftgql/graft/internal/transport"
	"github.com/graftgql/graft/internal/transport/sse"
	"github.com/graftgql/graft/internal/transport/ws"
	"github.com/graftgql/graft/internal/upload"
	"github.com/graftgql/graft/limits"
	"github.com/graftgql/graft/schema"
)

// Router serves a schema over HTTP: the GraphQL endpoint at Config.Path
// and, when configured, GraphiQL at its own path. It is an http.Handler,
// so it composes with other routes in one mux and mounts under a prefix
// (with http.StripPrefix or a router's Mount). The adapter packages run
// the same pipeline on fasthttp and AWS Lambda, NewWebHandler in the shape
// of a fetch handler, and Execute without HTTP.
type Router struct {
	cfg Config
	// hookMasks are the phases each hook observes (HookPhases), and
	// phaseHooks the hooks (by index, the first 64) observing each phase.
	hookMasks  []phaseMask
	phaseHooks [PhaseAnswered + 1]uint64

	// hooks are Config.Hooks and the built-in hooks Config asks for (the
	// cache hints first, the access log last), in the order they run.
	hooks  []Hook
	schema *schema.Schema
	layer  *Layer
	engine *exec.Engine
	docs   *costlru.Cache[string, *document]
	texts  *httpapi.QueryTexts  // query texts by their escaped form in a body
	pinned map[string]*document // safelisted documents, prepared at start
	pq     *pqstate.PersistedQueries
	// pqOwner marks what the router attaches to the entries of the
	// persisted-query store and of its query texts (pipeline.go,
	// persistedDocument); only its identity matters.
	pqOwner  *byte
	graphiql *graphiql.Page
	load     loadBounds
	watchdog watchdog    // the execution timeout (timeout.go)
	subs     *hub        // streaming transports: WebSocket, SSE, multipart
	ws       *ws.Server  // the WebSocket transport
	sse      *sse.Server // single-connection SSE
	// units are the streaming transports, in the order they are offered
	// a request (serveStream).
	units  []transport.Unit
	policy httpapi.Policy
	// graphiqlAssets is the path prefix of the embedded GraphiQL assets,
	// "" when they are not served.
	graphiqlAssets string
	// cacheHints: a Config.CacheHints hook decides Cache-Control
	// (cachehints.go).
	cacheHints bool
	// uploads bounds multipart requests; nil when the schema does not use
	// schema.Upload (upload.go).
	uploads *upload.Limits
}

// document is a prepared document with the limits analysis of each
// operation whose analysis does not depend on variables.
type document struct {
	doc    *exec.Document
	static map[*ast.OperationDefinition]limits.Result
	cost   int64 // estimated bytes held, for the document cache
	// ref is what persistedDocument attaches to the entries of the
	// query's text (the memory store's, the router's query texts'): it
	// leads to this document while the router holds it (in its document
	// cache, or pinned), and to nil once the cache lets it go. Entries
	// thus never keep a document alive, and the document cache alone
	// bounds the documents held.
	ref *docRef
}

// docRef leads to a document the router holds (see document.ref).
type docRef struct{ p atomic.Pointer[document] }

// release is called when the document cache lets d go.
func (d *document) release() { d.ref.p.Store(nil) }

// held reports whether the router holds d, so entries may lead to it.
func (d *document) held() bool { return d.ref.p.Load() == d }

// documentCacheEntryShare: one document may take at most this fraction of
// Config.DocumentCacheBytes; a larger one is prepared for each request and
// not cached.
const documentCacheEntryShare = 64

// selectionCost estimates the bytes a prepared document holds per
// selection (AST node, validation and plan entries), measured on
// documents of distinct aliased fields, with room to spare.
const selectionCost = 512

// NewRouter returns a Router serving s with the services of layer (nil for
// none) and the given configuration. Invalid configuration, and in
// safelist mode any listed query that does not validate, is an error.
func NewRouter(s *schema.Schema, layer *Layer, cfg Config) (*Router, error) {
	if s.SDL() == "" {
		return nil, fmt.Errorf("graft: NewRouter: no schema (build one with schema.Builder.Build)")
	}
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if layer == nil {
		layer = NewLayer()
	}
	r := &Router{cfg: cfg, schema: s, layer: layer, subs: newHub(cfg.Subscriptions), policy: cfg.policy()}
	r.load.maxInFlight, r.load.maxBuffered = int64(cfg.MaxInFlight), cfg.MaxBufferedBytes
	r.subs.SetBudget(streamBudget{r})
	sc := r.subs.cfg
	r.ws = ws.New(ws.Config{OnConnect: sc.OnConnect, KeepAlive: sc.KeepAlive, InitTimeout: sc.InitTimeout,
		WriteTimeout: sc.WriteTimeout, MaxSubscriptionsPerConnection: sc.MaxSubscriptionsPerConnection,
		OriginPatterns: sc.OriginPatterns, CSRF: cfg.CSRF != nil, ReadLimit: cfg.MaxBodyBytes}, pipeline{r: r}, r.subs.Hub)
	preflight := ""
	if cfg.CSRF != nil {
		preflight = cfg.CSRF.RequiredHeaders[0]
	}
	r.sse = sse.New(sse.Config{KeepAlive: sc.KeepAlive, InitTimeout: sc.InitTimeout, WriteTimeout: sc.WriteTimeout,
		StreamBufferBytes: sc.StreamBufferBytes, MaxSubscriptionsPerConnection: sc.MaxSubscriptionsPerConnection,
		PreflightHeader: preflight, MaxReservations: sc.MaxReservations, MaxReservationsPerAddress: sc.MaxReservationsPerAddress,
		Reservations: schemadef.Model(s).Subscription != nil}, ssePipeline{pipeline{r: r}}, r.subs.Hub)
	// The streaming transports: a new one is a package under
	// internal/transport and one line here.
	r.units = []transport.Unit{r.ws, r.sse, httpStreams{r}}
	r.hooks = cfg.Hooks[:len(cfg.Hooks):len(cfg.Hooks)]
	if cfg.CacheHints == nil && hasCacheHints(s.AST()) {
		cfg.CacheHints = CacheHintsHook(s)
		r.cfg.CacheHints = cfg.CacheHints
	}
	if cfg.CacheHints != nil {
		r.hooks, r.cacheHints = append([]Hook{cfg.CacheHints}, r.hooks...), true
	}
	if cfg.AccessLog != nil {
		r.hooks = append(r.hooks, AccessLogHook(cfg.AccessLog))
	}
	r.hookMasks = hookMasks(r.hooks)
	r.phaseHooks = phaseHooks(r.hookMasks)
	r.uploads = uploadLimits(s, cfg.Uploads)
	r.engine = exec.New(s, exec.Options{
		Logger:               cfg.Logger,
		MaxTokens:            cfg.MaxTokens,
		MaxErrors:            cfg.MaxErrors,
		DisableIntrospection: cfg.DisableIntrospection,
		MaskErrors:           cfg.MaskErrors,
		MaxResponseBytes:     cfg.MaxResponseBytes,
		MaxConcurrency:       cfg.MaxConcurrency,
		Middleware:           middlewareFor(cfg.FieldMiddleware, s),
		Present:              cfg.ErrorPresenter,
		OnPanic:              cfg.OnPanic,
	})
	r.docs, err = costlru.New[string, *document](cfg.DocumentCacheSize, cfg.DocumentCacheBytes,
		max(cfg.DocumentCacheBytes/documentCacheEntryShare, 1), nil, (*document).release)
	if err != nil {
		return nil, fmt.Errorf("graft: document cache: %w", err)
	}
	// The texts of escaped queries count against an eighth of the
	// document cache's budget, beside it.
	if r.texts, err = httpapi.NewQueryTexts(cfg.DocumentCacheSize, max(cfg.DocumentCacheBytes/8, 1)); err != nil {
		return nil, fmt.Errorf("graft: document cache: %w", err)
	}
	r.pqOwner = new(byte)
	if cfg.PersistedQueries != nil {
		opts := *cfg.PersistedQueries
		if opts.Logger == nil {
			opts.Logger = cfg.Logger
		}
		if r.pq, err = pqstate.New(opts); err != nil {
			return nil, err
		}
		if err := r.prepareSafelist(); err != nil {
			return nil, err
		}
	}
	if g := cfg.GraphiQL; g != nil {
		base := g.AssetBaseURL
		if g.Assets == GraphiQLAssetsEmbedded {
			base = graphiql.EmbeddedBase(g.Path)
			r.graphiqlAssets = base + "/"
		}
		page, err := graphiql.NewPage(graphiql.Options{Endpoint: g.Endpoint, AssetBaseURL: base, Title: g.Title,
			FrameAncestors: g.FrameAncestors})
		if err != nil {
			return nil, fmt.Errorf("graft: GraphiQL page: %w", err)
		}
		r.graphiql = page
	}
	return r, nil
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

// document returns the prepared document for query, from the cache or
// freshly parsed, validated and planned. query may share memory with the
// request body (see httpapi.Request.Query): what is kept is prepared from
// a copy.
func (r *Router) document(query string) (*document, gqlerror.List) {
	if d, ok := r.pinned[query]; ok {
		return d, nil
	}
	if d, ok := r.docs.Get(query); ok {
		return d, nil
	}
	query = strings.Clone(query)
	d, errs := r.prepare(query)
	if errs != nil {
		return nil, errs
	}
	if !r.docs.Add(query, d, d.cost) {
		d.release() // too large to cache: prepared for this request only
	}
	return d, nil
}

// DocumentCacheStats returns the size and counters of the document cache:
// entries and estimated bytes held, bounds, evictions, and documents too
// large to cache.
func (r *Router) DocumentCacheStats() CacheStats {
	st := r.docs.Stats()
	return CacheStats{Entries: st.Entries, Bytes: st.Cost, MaxEntries: st.MaxEntries, MaxBytes: st.MaxCost,
		MaxEntryBytes: st.MaxEntryCost, Evictions: st.Evictions, Refused: st.Refused}
}

// CacheStats is a snapshot of a cache's size and counters, for logs and
// metrics.
type CacheStats struct {
	// Entries and Bytes are what the cache holds now.
	Entries int
	Bytes   int64
	// MaxEntries, MaxBytes and MaxEntryBytes are its bounds.
	MaxEntries    int
	MaxBytes      int64
	MaxEntryBytes int64
	// Evictions counts entries removed to make room for newer ones.
	Evictions uint64
	// Refused counts entries not cached because they alone were over
	// MaxEntryBytes.
	Refused uint64
}

// documentCost estimates the bytes held by a cached document: its key (the
// query text) and selectionCost per selection of the document.
func documentCost(query string, ad *ast.QueryDocument) int64 {
	n := 0
	var walk func(ast.SelectionSet)
	walk = func(set ast.SelectionSet) {
		for _, sel := range set {
			n++
			switch s := sel.(type) {
			case *ast.Field:
				n += len(s.Arguments) + len(s.Directives)
				walk(s.SelectionSet)
			case *ast.InlineFragment:
				walk(s.SelectionSet)
			}
		}
	}
	for _, op := range ad.Operations {
		n += len(op.VariableDefinitions) + len(op.Directives)
		walk(op.SelectionSet)
	}
	for _, f := range ad.Fragments {
		walk(f.SelectionSet)
	}
	return int64(len(query)) + int64(n)*selectionCost
}

func (r *Router) prepare(query string) (*document, gqlerror.List) {
	doc, errs := r.engine.Prepare(query)
	if len(errs) > 0 {
		return nil, errs
	}
	// The limits analysis of operations that use no variables is done
	// once here; the others are analysed per request.
	ad := doc.AST()
	d := &document{doc: doc, static: make(map[*ast.OperationDefinition]limits.Result, len(ad.Operations)), cost: documentCost(query, ad),
		ref: &docRef{}}
	d.ref.p.Store(d)
	for _, op := range ad.Operations {
		if !limits.UsesVariables(ad, op) || !r.costReadsVariables(op.SelectionSet, nil) {
			d.static[op] = limits.Analyze(r.schema, ad, op, nil)
		}
	}
	return d, nil
}

// costReadsVariables reports whether the limits analysis of a selection
// set reads the request's variables: only declared cost functions see
// argument values, so only a field with a declared cost taking a variable
// argument makes it depend on them. It answers true when unsure (a
// fragment spread not resolved by validation).
func (r *Router) costReadsVariables(set ast.SelectionSet, seen map[string]bool) bool {
	m := schemadef.Model(r.schema)
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if s.ObjectDefinition != nil && len(s.Arguments) > 0 {
				if t := m.Type(s.ObjectDefinition.Name); t != nil {
					if f := t.Field(s.Name); f != nil && f.Cost != nil && argumentsUseVariables(s.Arguments) {
						return true
					}
				}
			}
			if r.costReadsVariables(s.SelectionSet, seen) {
				return true
			}
		case *ast.InlineFragment:
			if r.costReadsVariables(s.SelectionSet, seen) {
				return true
			}
		case *ast.FragmentSpread:
			if s.Definition == nil {
				return true
			}
			if seen[s.Name] {
				continue
			}
			if seen == nil {
				seen = make(map[string]bool)
			}
			seen[s.Name] = true
			if r.costReadsVariables(s.Definition.SelectionSet, seen) {
				return true
			}
		}
	}
	return false
}

// argumentsUseVariables reports whether an argument value holds a
// variable, at any depth.
func argumentsUseVariables(args ast.ArgumentList) bool {
	var walk func(v *ast.Value) bool
	walk = func(v *ast.Value) bool {
		if v == nil {
			return false
		}
		if v.Kind == ast.Variable {
			return true
		}
		for _, c := range v.Children {
			if walk(c.Value) {
				return true
			}
		}
		return false
	}
	for _, a := range args {
		if walk(a.Value) {
			return true
		}
	}
	return false
}

var _ http.Handler = (*Router)(nil)
