package exec

import (
	"context"

	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/graftgql/graft/internal/gqlerr"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// pathElem is one step of a response path: a response key, or a list
// index when key is empty and index is not negative.
type pathElem struct {
	key   string
	index int
}

// request is the state of one execution. It is pooled.
type request struct {
	e   *Engine
	ctx context.Context
	// done is the context's Done channel, or nil when the context is an
	// Ender (then ender) or is never done.
	done  <-chan struct{}
	ender Ender
	vars  map[string]any
	buf   []byte
	path  []pathElem
	errs  []*gqlerror.Error
	// sink collects errors resolvers add with AddError: it is ctx.
	sink *reqCtx
	// logged counts the field failures logged or suppressed (logbound.go).
	logged atomic.Int32
	// ahead is set when the operation is batched and its fields were
	// resolved ahead (batch.go) into st, which a pooled request keeps.
	ahead bool
	st    *aheadState
	// slow is not zero while the general writer writes what the fast
	// writer gave up on (fast.go).
	slow int
	// raw is the raw writer's state (raw.go), once it has written.
	raw *rawState
	// limit is the length r.buf may reach before the response budget is
	// spent (budget_response.go): the engine's MaxResponseBytes, or less
	// (RunWithin).
	limit int
	// inc is set when the request writes a payload of an incremental
	// delivery; jobs are the deferred fragments and streams it registered
	// (incremental.go).
	inc  *Incremental
	jobs []*incJob
}

var requestPool = sync.Pool{New: func() any { return &request{path: make([]pathElem, 0, 16)} }}

// Execute runs the operation o with coerced variables vars (the result of
// CoerceVariables) and appends the JSON response body to buf:
// {"errors":[...],"data":...,"extensions":...}, errors only when there are
// some and extensions only when extensions is not nil (it must then be a
// JSON object). ctx is handed to resolvers; once it is done, remaining
// fields that need a resolver become errors.
func (e *Engine) Execute(ctx context.Context, o *Operation, vars map[string]any, buf []byte, extensions []byte) []byte {
	out, _ := e.Run(ctx, o, vars, buf, extensions)
	return out
}

// Run is Execute that also reports whether the response carries errors,
// so callers need not read the body to know.
func (e *Engine) Run(ctx context.Context, o *Operation, vars map[string]any, buf []byte, extensions []byte) (out []byte, hasErrors bool) {
	return e.RunReporting(ctx, o, vars, buf, extensions, nil)
}

// RunReporting is Run that also appends the answer's errors, as values,
// to *errs when errs is not nil: observers of the request (hooks, metrics)
// read their codes and extensions without parsing the body.
func (e *Engine) RunReporting(ctx context.Context, o *Operation, vars map[string]any, buf []byte, extensions []byte, errs *[]*gqlerror.Error) (out []byte, hasErrors bool) {
	out, hasErrors, _ = e.RunWithin(ctx, o, vars, buf, extensions, errs, e.maxResponse)
	return out, hasErrors
}

// RunWithin is RunReporting with the response budget limit bytes rather
// than the engine's MaxResponseBytes (a smaller limit only: a larger one
// is cut to it), for callers that share one budget between several
// executions (the operations of an HTTP batch). The RESPONSE_TOO_LARGE
// error still names MaxResponseBytes. A cached answer longer than limit
// is not used. spent reports that the response reached the limit (the
// fields past it became null).
func (e *Engine) RunWithin(ctx context.Context, o *Operation, vars map[string]any, buf []byte, extensions []byte, errs *[]*gqlerror.Error, limit int) (out []byte, hasErrors, spent bool) {
	limit = min(max(limit, 0), e.maxResponse)
	if o.cacheable {
		if c := e.Cached(o); c != nil && len(c) <= limit {
			buf = append(buf, c[:len(c)-1]...)
			return closeResponse(buf, extensions), false, false
		}
	}
	if o.cacheable && limit == e.maxResponse {
		start := len(buf)
		buf, hasErrors, spent = e.run(ctx, o, vars, nil, buf, nil, errs, limit)
		if !hasErrors {
			e.cacheAnswer(o, buf[start:])
		}
		return closeResponse(buf[:len(buf)-1], extensions), hasErrors, spent
	}
	return e.run(ctx, o, vars, nil, buf, extensions, errs, limit)
}

// Cached returns the answer Run cached for o, {"data":...} without
// extensions and without errors, or nil when it has none (only operations
// whose answer depends on nothing but the schema, introspection, have one
// once they ran). Running o would append exactly these bytes, with no
// resolver called; they are shared by every caller and must only be read.
func (e *Engine) Cached(o *Operation) []byte {
	if !o.cacheable {
		return nil
	}
	if c := o.cached.Load(); c != nil {
		return *c
	}
	return nil
}

// run executes o and appends the response to buf. pre holds the root
// field values of a subscription event (see Stream.Execute); a
// subscription without it is refused.
func (e *Engine) run(ctx context.Context, o *Operation, vars map[string]any, pre []prefetched, buf []byte, extensions []byte, report *[]*gqlerror.Error, limit int) (out []byte, hasErrors, spent bool) {
	if o.root == nil {
		// The schema has no root type for the operation: graphql-js
		// answers at execution, with data null.
		ge := withCode(&gqlerror.Error{Message: "Schema is not configured to execute " + string(o.def.Operation) + " operation."}, gqlerr.OperationUnsupported)
		if p := o.def.Position; p != nil {
			ge.Locations = []gqlerror.Location{{Line: p.Line, Column: p.Column}}
		}
		if report != nil {
			*report = append(*report, ge)
		}
		buf = append(buf, `{"errors":`...)
		buf = appendErrorList(buf, []*gqlerror.Error{ge})
		return closeResponse(append(buf, `,"data":null`...), extensions), true, false
	}
	if o.def.Operation == ast.Subscription && pre == nil {
		ge := withCode(gqlerror.Errorf("Subscriptions are not supported."), gqlerr.OperationUnsupported)
		if report != nil {
			*report = append(*report, ge)
		}
		return gqlerr.AppendResponse(buf, gqlerror.List{ge}, extensions), true, false
	}
	r := requestPool.Get().(*request)
	r.e, r.vars = e, vars
	r.watch(ctx)
	c := r.newReqCtx(ctx)
	r.ctx, r.sink = c, c
	// Grow the buffer once to the size of the last answer rather than
	// doubling it on the way there.
	hint := int(o.sizeHint.Load())
	if cap(buf)-len(buf) < hint {
		buf = slices.Grow(buf, hint)
	}
	start := len(buf)
	r.limit = start + limit
	r.buf = append(buf, `{"data":`...)
	dataStart := len(r.buf)
	var ok bool
	if pre == nil && e.docDirs != nil && e.docDirs.Operation != nil && e.docDirs.Applies(o.def.Directives) {
		ok = r.executeDirected(o) // docdirectives.go
	} else {
		ok = r.executeRoot(o, pre)
	}
	if !ok {
		r.buf = append(r.buf[:dataStart], "null"...)
	}
	r.logSuppressed()
	hasErrors = len(r.errs) > 0
	if hasErrors && report != nil {
		*report = append(*report, r.errs...)
	}
	if hasErrors {
		spent = r.budgetSpent()
		errs := append(make([]byte, 0, 256), `"errors":`...)
		errs = appendErrorList(errs, r.errs)
		errs = append(errs, ',')
		r.buf = slices.Insert(r.buf, start+1, errs...)
	}
	out = closeResponse(r.buf, extensions)
	if n := min(len(out)-start, maxSizeHint); n > hint || n < hint/2 {
		o.sizeHint.Store(int32(n))
	}
	r.release()
	return out, hasErrors, spent
}

// executeRoot writes the root object. A panic outside resolvers (a leaf
// writer, a type resolver) ends the execution with an internal error
// rather than escaping.
func (r *request) executeRoot(o *Operation, pre []prefetched) (ok bool) {
	mark := len(r.buf)
	defer func() {
		if p := recover(); p != nil {
			stack := debug.Stack()
			r.e.logger.ErrorContext(r.ctx, "graphql: execution panicked", "panic", p, "stack", string(stack))
			r.e.panicked(r.ctx, p, stack)
			r.buf = r.buf[:mark]
			r.path = r.path[:0]
			r.addError(internalError(nil))
			ok = false
		}
	}()
	if pre != nil {
		return r.writeFields(o.root.object, r.e.ast.Subscription.Name, nil, pre)
	}
	rootName := r.e.ast.Query.Name
	serial := o.def.Operation == ast.Mutation
	if serial {
		rootName = r.e.ast.Mutation.Name
	}
	if o.batched {
		r.resolveAhead(o.root.object, serial)
	}
	return r.writeObject(o.root.object, rootName, nil, !serial)
}

// release returns r to the pool.
func (r *request) release() {
	clear(r.errs)
	if r.sink != nil {
		r.sink.take()
	}
	if r.ahead {
		r.st.release()
	}
	if r.raw != nil {
		r.raw.reset()
	}
	// Field by field: a whole-struct store costs a bulk write barrier.
	r.e, r.ctx, r.done, r.ender, r.vars, r.buf, r.sink = nil, nil, nil, nil, nil, nil, nil
	if r.inc != nil {
		r.inc, r.jobs = nil, nil
	}
	r.path, r.errs = r.path[:0], r.errs[:0]
	r.logged.Store(0)
	r.ahead, r.slow = false, 0
	requestPool.Put(r)
}

// closeResponse appends the extensions member and the closing brace.
func closeResponse(buf, extensions []byte) []byte {
	if extensions != nil {
		buf = append(buf, `,"extensions":`...)
		buf = append(buf, extensions...)
	}
	return append(buf, '}')
}

// Ender is a context that reports its end without a channel. The engine
// polls Ended rather than ask for Done, so a context that makes its Done
// channel only on demand (the router's execution context) need not make
// one for a request nobody waits on. Ended must report true once Err
// returns non-nil.
type Ender interface {
	Ended() bool
}

// watch sets what over polls for ctx.
func (r *request) watch(ctx context.Context) {
	if en, ok := ctx.(Ender); ok {
		r.ender = en
		return
	}
	r.done = ctx.Done()
}

// over reports whether the request's context is done.
func (r *request) over() bool {
	if r.ender != nil {
		return r.ender.Ended()
	}
	if r.done == nil {
		return false
	}
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}
