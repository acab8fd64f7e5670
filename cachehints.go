package graft

import (
	"context"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/graftgql/graft/internal/httpapi"
	"github.com/graftgql/graft/internal/schemadef"
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

// setCacheControl sets the Cache-Control of a successful GET query answer:
// from the schema's cache hints when it has any, else the persisted
// queries' configured header for a persisted hit. It is never public for
// a request with credentials (see setPersistedCacheControl).
func (r *Router) setCacheControl(ctx context.Context, st *requestState, req *httpapi.Request, op *ast.OperationDefinition,
	persistedCC string, hasErrors bool, resp *httpapi.Response) {
	if hasErrors || op.Operation != ast.Query {
		return
	}
	if r.cacheHints {
		if !req.IsGet {
			return
		}
		maxAge, private, ok := operationCachePolicy(r.schema.AST(), op)
		if !ok {
			return
		}
		cc := "public, max-age=" + strconv.FormatInt(maxAge, 10)
		if private {
			cc = "private, max-age=" + strconv.FormatInt(maxAge, 10)
		}
		setPersistedCacheControl(ctx, st.info.Header, resp, cc)
		return
	}
	if persistedCC != "" {
		setPersistedCacheControl(ctx, st.info.Header, resp, persistedCC)
	}
}
