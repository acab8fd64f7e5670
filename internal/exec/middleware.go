package exec

import (
	"context"
	"reflect"
	"runtime/debug"
	"unsafe"
)

// FieldCall describes the field a middleware wraps.
type FieldCall struct {
	ParentType string
	FieldName  string
	// Resolver is false for a plain struct field.
	Resolver bool
	// Path is the response path of the field (keys and list indexes),
	// also for fields resolved ahead of writing (concurrent and batch
	// resolvers).
	Path []any
	r    *request
	f    *fieldPlan
	obj  unsafe.Pointer
}

// Parent returns the object the field is resolved on, as a pointer to
// its Go struct (a *T for an object type declared with Object[T]), or nil
// on the root types.
func (c *FieldCall) Parent() any {
	t := c.r.e.types[c.ParentType]
	if c.obj == nil || t == nil || t == c.r.e.query || t == c.r.e.mutation || c.ParentType == "Subscription" ||
		t.GoType == nil || t.GoType.Kind() != reflect.Struct {
		return nil
	}
	return reflect.NewAt(t.GoType, c.obj).Interface()
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

// Next resolves the field a middleware wraps and returns its Go value
// (see schemadef.Field.Value): nil for null.
type Next func(ctx context.Context) (any, error)

// Middleware wraps the resolution of one field: it calls next to resolve
// it and returns the value to write, next's or another of the field's Go
// type, or returns an error instead (the field becomes null with that
// error).
type Middleware func(ctx context.Context, call *FieldCall, next Next) (any, error)

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

// pathNode is a response path kept while resolving ahead, where the
// writer's path is not there yet: a key (index < 0) or a list index,
// below up. rootPath is the empty path. Nodes are made only when the
// engine has middleware.
type pathNode struct {
	up    *pathNode
	key   string
	index int
}

var rootPath = &pathNode{index: -1}

// child returns the path of the key below n.
func (n *pathNode) child(key string) *pathNode { return &pathNode{up: n, key: key, index: -1} }

// item returns the path of list index i below n.
func (n *pathNode) item(i int) *pathNode { return &pathNode{up: n, index: i} }

// slice returns the path as keys (string) and list indexes (int).
func (n *pathNode) slice() []any {
	depth := 0
	for p := n; p != rootPath && p != nil; p = p.up {
		depth++
	}
	out := make([]any, depth)
	for p := n; p != rootPath && p != nil; p = p.up {
		depth--
		if p.index >= 0 {
			out[depth] = p.index
		} else {
			out[depth] = p.key
		}
	}
	return out
}

// nodeOf returns the writer's current path as a pathNode.
func (r *request) nodeOf() *pathNode {
	n := rootPath
	for _, p := range r.path {
		if p.index >= 0 {
			n = n.item(p.index)
		} else {
			n = n.child(p.key)
		}
	}
	return n
}

// writerPath copies the writer's current path.
func (r *request) writerPath() []any {
	path := make([]any, len(r.path))
	for i, p := range r.path {
		if p.index >= 0 {
			path[i] = p.index
		} else {
			path[i] = p.key
		}
	}
	return path
}

// resolveWrapped resolves f through its middleware. sync is set when the
// field is resolved in place, so the request's path is the field's.
func (r *request) resolveWrapped(f *fieldPlan, obj unsafe.Pointer, ctx context.Context, sync bool) (unsafe.Pointer, error) {
	var path []any
	if sync {
		path = r.writerPath()
	}
	return r.resolveWrappedAt(f, obj, ctx, path)
}

// resolveFieldAt is resolveFieldCtx for a field resolved ahead of
// writing, on the object at the path at (nil when not tracked).
func (r *request) resolveFieldAt(f *fieldPlan, obj unsafe.Pointer, ctx context.Context, at *pathNode) (unsafe.Pointer, error) {
	if f.mw != nil && at != nil {
		return r.resolveWrappedAt(f, obj, ctx, at.child(f.key).slice())
	}
	return r.resolveFieldCtx(f, obj, ctx)
}

// wrapped is one resolution of a field through its middleware: the
// call the middleware sees and what next resolved, kept in one allocation.
type wrapped struct {
	call   FieldCall
	ptr    unsafe.Pointer
	inner  error
	boxed  any
	called bool
}

// next resolves the field without its middleware and returns its Go value.
func (w *wrapped) next(c context.Context) (any, error) {
	w.called = true
	r, f := w.call.r, w.call.f
	w.ptr, w.inner = r.resolveInner(f, w.call.obj, c)
	if w.inner != nil {
		w.ptr, w.boxed = nil, nil
		return nil, w.inner
	}
	w.boxed = f.def.Value(w.ptr)
	return w.boxed, nil
}

// resolveWrappedAt resolves f through its middleware with the given path,
// and turns the middleware's value back into the executor's form.
func (r *request) resolveWrappedAt(f *fieldPlan, obj unsafe.Pointer, ctx context.Context, path []any) (p unsafe.Pointer, err error) {
	if ctx == nil {
		ctx = r.fieldContext(f)
	}
	w := &wrapped{call: FieldCall{ParentType: f.parent, FieldName: f.name, Resolver: f.def.Resolve != nil, Path: path, r: r, f: f, obj: obj}}
	defer func() {
		if v := recover(); v != nil {
			p, err = nil, r.middlewarePanicked(ctx, f, v)
		}
	}()
	v, err := f.mw(ctx, &w.call, w.next)
	if err != nil {
		return nil, err
	}
	if w.called && w.inner == nil && sameValue(v, w.boxed) {
		return w.ptr, nil
	}
	return r.fromValue(f, v)
}

// fromValue returns the executor's form of v, a value a middleware
// returned for f; a value of another Go type is logged and fails the
// field with an internal error.
func (r *request) fromValue(f *fieldPlan, v any) (unsafe.Pointer, error) {
	q, err := f.def.FromValue(v)
	if err != nil {
		r.logFieldError("graphql: field middleware returned a value of the wrong type",
			"field", f.parent+"."+f.name, "error", err)
		return nil, errPanic
	}
	return q, nil
}

// middlewarePanicked logs a panic of a field's middleware and reports it
// like a resolver's.
func (r *request) middlewarePanicked(ctx context.Context, f *fieldPlan, v any) error {
	stack := debug.Stack()
	r.logFieldError("graphql: field middleware panicked",
		"field", f.parent+"."+f.name, "panic", v, "stack", string(stack))
	r.e.panicked(ctx, v, stack) // present.go
	return errPanic
}

// eface is the memory layout of an interface value with no methods.
type eface struct {
	typ, data unsafe.Pointer
}

// sameValue reports whether a and b are the same interface value (same
// dynamic type and the same data word), without comparing what they hold,
// so values of uncomparable types are fine.
func sameValue(a, b any) bool {
	ea, eb := (*eface)(unsafe.Pointer(&a)), (*eface)(unsafe.Pointer(&b))
	return ea.typ == eb.typ && ea.data == eb.data
}
