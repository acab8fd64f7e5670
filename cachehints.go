package graft

import (
	"context"
	"net/http"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/graftgql/graft/internal/httpapi"
	"github.com/graftgql/graft/internal/schemadef"
	"github.com/graftgql/graft/schema"
)

// cachePolicy is an operation's cache policy: the minimum max-age of
// what it selects and whether any of it is private.
type cachePolicy struct {
	schema  *ast.Schema
	maxAge  int64
	private bool
	set     bool // some hinted or unhinted field restricted maxAge
}

// hasCacheHints reports whether the schema declares @cacheControl.
func hasCacheHints(as *ast.Schema) bool {
	return as.Directives[schemadef.CacheControlDirective] != nil
}

// operationCachePolicy computes the policy of op: every selected field
// counts with its own hint, else its type's; a field without either has
// max-age 0 unless it is a scalar or enum below the root, which inherits
// its parent's. Introspection fields are ignored. ok is false when
// nothing in op is cacheable.
func operationCachePolicy(s *ast.Schema, op *ast.OperationDefinition) (maxAge int64, private, ok bool) {
	if op.Operation != ast.Query {
		return 0, false, false
	}
	p := cachePolicy{schema: s, maxAge: -1}
	p.walk(op.SelectionSet, true, 0)
	if !p.set || p.maxAge <= 0 {
		return 0, false, false
	}
	return p.maxAge, p.private, true
}

func (p *cachePolicy) restrict(maxAge int64) {
	if !p.set || maxAge < p.maxAge {
		p.maxAge = maxAge
	}
	p.set = true
}

func (p *cachePolicy) walk(set ast.SelectionSet, root bool, depth int) {
	if depth > 64 {
		p.restrict(0)
		return
	}
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if s.Definition == nil || len(s.Name) > 1 && s.Name[:2] == "__" {
				continue
			}
			hinted := p.hint(s.Definition.Directives)
			if !hinted && s.Definition.Type != nil {
				if t := p.schema.Types[s.Definition.Type.Name()]; t != nil {
					hinted = p.hint(t.Directives)
				}
			}
			if !hinted && (root || !isLeaf(s)) {
				p.restrict(0)
			}
			p.walk(s.SelectionSet, false, depth+1)
		case *ast.InlineFragment:
			p.walk(s.SelectionSet, root, depth+1)
		case *ast.FragmentSpread:
			if s.Definition != nil {
				p.walk(s.Definition.SelectionSet, root, depth+1)
			}
		}
	}
}

// hint applies a @cacheControl among ds, reporting whether it set a
// max-age; a scope alone still makes the answer private.
func (p *cachePolicy) hint(ds ast.DirectiveList) bool {
	d := ds.ForName(schemadef.CacheControlDirective)
	if d == nil {
		return false
	}
	args := d.ArgumentMap(nil)
	if s, _ := args["scope"].(string); s == "PRIVATE" {
		p.private = true
	}
	switch v := args["maxAge"].(type) {
	case int64:
		p.restrict(v)
		return true
	case int:
		p.restrict(int64(v))
		return true
	}
	return false
}

// isLeaf reports whether f has no selection (a scalar or enum).
func isLeaf(f *ast.Field) bool { return len(f.SelectionSet) == 0 }

// CacheHintsHook returns the Hook that sets the Cache-Control of a
// successful GET query answer from the @cacheControl hints of s (see
// schema.CacheControl): "public, max-age=N" or "private, max-age=N" after
// the operation's policy, always private when the request carries
// Authorization or Cookie or Config.Auth accepted a user, with Vary:
// Accept, Authorization, Cookie. An answer with errors, a mutation, a
// request other than GET, a streamed answer and an operation that selects
// anything unhinted get none. It acts in the Before of PhaseAnswered,
// through SetResponseHeader.
//
// NewRouter installs it when the schema declares hints, unless
// Config.CacheHints replaces it.
func CacheHintsHook(s *schema.Schema) Hook { return cacheHintsHook{s.AST()} }

type cacheHintsHook struct{ schema *ast.Schema }

// Phases says the cache hints act in PhaseAnswered alone (HookPhases).
func (cacheHintsHook) Phases() []Phase { return []Phase{PhaseAnswered} }

func (h cacheHintsHook) Before(ctx context.Context, ev *HookEvent) (context.Context, error) {
	if ev.Phase != PhaseAnswered || ev.Operation == nil || ev.streamed || ev.ErrorCount > 0 ||
		ev.Status != http.StatusOK || ev.Request.Method != http.MethodGet {
		return nil, nil
	}
	maxAge, private, ok := operationCachePolicy(h.schema, ev.Operation)
	if !ok {
		return nil, nil
	}
	cc := "public, max-age=" + strconv.FormatInt(maxAge, 10)
	if private {
		cc = "private, max-age=" + strconv.FormatInt(maxAge, 10)
	}
	header := ev.Request.Header
	editHeader(ctx, func(h http.Header) { setCacheHeaders(ctx, header, h, cc) })
	return nil, nil
}

func (cacheHintsHook) After(context.Context, *HookEvent) {}

// setCacheControl sets the persisted queries' configured Cache-Control on
// a successful GET query answer that was a persisted hit, unless a
// Config.CacheHints hook decides the header (see setPersistedCacheControl
// for the rule on credentials).
func (r *Router) setCacheControl(ctx context.Context, st *requestState, req *httpapi.Request, op *ast.OperationDefinition,
	persistedCC string, hasErrors bool, resp *httpapi.Response) {
	if persistedCC == "" || r.cacheHints || hasErrors || op.Operation != ast.Query {
		return
	}
	setPersistedCacheControl(ctx, st.info.Header, resp, persistedCC)
}
