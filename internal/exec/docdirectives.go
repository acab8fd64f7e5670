package exec

import (
	"context"
	"errors"
	"runtime/debug"
	"sync/atomic"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	schema "github.com/graftgql/graft/internal/schemadef"
)

// errExecuted is the error of a second call of the next an operation's
// document directives receive.
var errExecuted = errors.New("the operation was already executed")

// executeDirected writes the root object through the schema's
// DocumentDirectives.Operation, for an operation that applies one of its
// directives. It reports false when the data is null.
func (r *request) executeDirected(o *Operation) (ok bool) {
	dataStart := len(r.buf)
	var called atomic.Bool
	next := func(ctx context.Context) ([]byte, error) {
		if !called.CompareAndSwap(false, true) {
			return nil, errExecuted
		}
		r.rebase(ctx)
		if !r.executeRoot(o, nil) {
			r.buf = append(r.buf[:dataStart], "null"...)
		}
		return r.buf[dataStart:len(r.buf):len(r.buf)], nil
	}
	data, err := r.callOperation(o, next)
	if err != nil {
		r.buf = r.buf[:dataStart]
		r.addError(r.operationError(o, err))
		return false
	}
	if data == nil {
		return false
	}
	if dataStart+len(data) > r.limit {
		r.buf = r.buf[:dataStart]
		r.addError(r.operationError(o, errors.New("the operation's directives returned data beyond the response budget")))
		return false
	}
	// data may be the bytes next wrote, in place: the copy is then a
	// move onto itself.
	r.buf = append(r.buf[:dataStart], data...)
	return true
}

// callOperation calls the hook, turning a panic into errPanic.
func (r *request) callOperation(o *Operation, next func(context.Context) ([]byte, error)) (data []byte, err error) {
	defer func() {
		if v := recover(); v != nil {
			stack := debug.Stack()
			r.e.logger.ErrorContext(r.ctx, "graphql: operation directive panicked", "panic", v, "stack", string(stack))
			r.e.panicked(r.ctx, v, stack)
			data, err = nil, errPanic
		}
	}()
	return r.e.docDirs.Operation(r.ctx, o.def, r.vars, next)
}

// rebase makes ctx, the context an operation directive passed on, the
// context of the request's resolvers.
func (r *request) rebase(ctx context.Context) {
	if ctx == nil || ctx == context.Context(r.ctx) {
		return
	}
	c := r.newReqCtx(ctx)
	r.ctx, r.sink = c, c
	r.watch(ctx)
}

// operationError converts an error of an operation's directives into a
// GraphQL error of the operation: no path, located at the operation.
func (r *request) operationError(o *Operation, err error) *gqlerror.Error {
	f := &fieldPlan{parent: string(o.def.Operation), name: o.def.Name}
	ge := r.resolverError(f, err)
	ge.Path = nil
	if p := o.def.Position; p != nil {
		ge.Locations = []gqlerror.Location{{Line: p.Line, Column: p.Column}}
	}
	return ge
}

// startDirected starts the subscription s through the schema's
// DocumentDirectives.Operation: next calls the subscription resolver with
// the context it is given.
func (s *Stream) startDirected(r *request, d *schema.DocumentDirectives) (src schema.Source, err error) {
	var called atomic.Bool
	var started error
	next := func(ctx context.Context) ([]byte, error) {
		if !called.CompareAndSwap(false, true) {
			return nil, errExecuted
		}
		if ctx != nil {
			r.ctx = ctx
		}
		src, started = s.start(r)
		return nil, started
	}
	defer func() {
		if v := recover(); v != nil {
			stack := debug.Stack()
			s.e.logger.ErrorContext(r.ctx, "graphql: operation directive panicked", "panic", v, "stack", string(stack))
			s.e.panicked(r.ctx, v, stack)
			src, err = schema.Source{}, errPanic
		}
	}()
	if _, err = d.Operation(r.ctx, s.op.def, r.vars, next); err != nil {
		return schema.Source{}, err
	}
	if !called.Load() {
		return schema.Source{}, errors.New("the operation's directives did not start the subscription")
	}
	return src, started
}

// docFieldMiddleware wraps mw, a field's middleware (nil for none), in
// the schema's DocumentDirectives.Field.
func docFieldMiddleware(hook func(context.Context, *ast.Field, any, map[string]any, func(context.Context) (any, error)) (any, error), mw Middleware) Middleware {
	return func(ctx context.Context, c *FieldCall, next Next) (any, error) {
		inner := next
		if mw != nil {
			inner = func(ctx context.Context) (any, error) { return mw(ctx, c, next) }
		}
		return hook(ctx, c.f.ast, c.Parent(), c.r.vars, inner)
	}
}
