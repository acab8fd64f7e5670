package exec

import (
	"context"
	"unsafe"
)

// FieldCall describes the field a middleware wraps.
type FieldCall struct {
	ParentType string
	FieldName  string
	// Resolver is false for a plain struct field.
	Resolver bool
	// Path is the response path of the field (keys and list indexes), or
	// nil when the field is resolved ahead of writing (concurrent and
	// batched resolution), where its position is not known yet.
	Path []any
	r    *request
	f    *fieldPlan
}

// Arguments returns the field's coerced argument values by name.
func (c *FieldCall) Arguments() map[string]any {
	if c.f.ast == nil || len(c.f.ast.Arguments) == 0 {
		return nil
	}
	vals, err := c.r.e.coerce.Arguments(c.f.ast.Definition.Arguments, c.f.ast.Arguments, c.r.vars)
	if err != nil {
		return nil
	}
	return vals
}

// Middleware wraps the resolution of one field: it calls next to resolve
// it, or returns an error instead (the field becomes null with that
// error).
type Middleware func(ctx context.Context, call *FieldCall, next func(context.Context) error) error

// MiddlewareFor returns the middleware of the field typeName.fieldName, or
// nil for none; it is asked once per field at plan time.
type MiddlewareFor func(typeName, fieldName string) Middleware

// middlewareOf is the middleware of a planned field, nil (the fast path)
// unless Options.Middleware installs one for it.
func (e *Engine) middlewareOf(typeName, fieldName string) Middleware {
	if e.mwFor == nil {
		return nil
	}
	return e.mwFor(typeName, fieldName)
}

// resolveWrapped resolves f through its middleware. sync is set when the
// field is resolved in place, so the request's path is the field's.
func (r *request) resolveWrapped(f *fieldPlan, obj unsafe.Pointer, ctx context.Context, sync bool) (unsafe.Pointer, error) {
	if ctx == nil {
		ctx = r.fieldContext(f)
	}
	call := &FieldCall{ParentType: f.parent, FieldName: f.name, Resolver: f.def.Resolve != nil, r: r, f: f}
	if sync {
		call.Path = make([]any, len(r.path))
		for i, p := range r.path {
			if p.index >= 0 {
				call.Path[i] = p.index
			} else {
				call.Path[i] = p.key
			}
		}
	}
	var p unsafe.Pointer
	var inner error
	called := false
	err := f.mw(ctx, call, func(c context.Context) error {
		called = true
		p, inner = r.resolveInner(f, obj, c)
		return inner
	})
	if err != nil {
		return nil, err
	}
	if !called {
		return nil, nil
	}
	return p, inner
}
