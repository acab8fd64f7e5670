package graft

import (
	"context"
	"reflect"
	"sync"
	"unsafe"

	"github.com/graftgql/graft/internal/httpapi"
	"github.com/graftgql/graft/limits"
)

// RequestInfo describes the GraphQL request being served. Resolvers read
// it with RequestInfoFrom, for example to check an Authorization header.
type RequestInfo struct {
	// Header returns the first value of a request header (any case). It
	// returns "" when the request did not come over HTTP.
	Header        func(name string) string
	OperationName string
	Variables     map[string]any
	// Analysis is the limits analysis of the operation (depth,
	// complexity, fields, aliases, directives).
	Analysis limits.Result
	// RequestID identifies the request in logs: the client's X-Request-ID
	// when valid, else a generated one ("" unless Config.RequestID or
	// Config.AccessLog is set).
	RequestID string
	// Method is the HTTP method (POST for Execute; for an operation over
	// WebSocket, the upgrade request's GET); RemoteAddr the client address
	// as the transport reports it ("" for Execute).
	Method     string
	RemoteAddr string
	// BatchItem is the operation's position in an HTTP batch, counting
	// from 1; 0 when the request is not part of a batch. The operations of
	// a batch share its RequestID.
	BatchItem int
	// BytesReceived is the size of the request body as read, files
	// included for a multipart upload; 0 for a request without a body (a
	// GET, Execute, a WebSocket operation) or refused before its body was
	// read. The first operation of an HTTP batch carries the batch's
	// bytes, the others 0, so that sums count each body once.
	BytesReceived int64
}

type stateKey struct{}

// requestState is the per-request value stored in the context: request
// information and the request services built so far.
type requestState struct {
	info     RequestInfo
	layer    *Layer
	app      *appBuild // set in the context of application service builders
	mu       sync.Mutex
	services map[reflect.Type]*requestBuild
	ext      map[string]any    // SetExtension (hooks.go)
	resp     *httpapi.Response // SetResponseHeader (respaccess.go)
	// ph is the hooks' run of the request (hooks.go), nil when nothing
	// observes it.
	ph *phaseRun
	// ctx is the context withState gives the first time: the state
	// carries its own context, one allocation rather than two.
	ctx stateCtx
	// answer is the response of a request ServeHTTP or Execute serves,
	// allocated with the state for the same reason.
	answer httpapi.Response
	// deadlineUsed says the execution context carried with the state
	// (servedState, hookedState) is taken, so later operations of a batch
	// get their own.
	deadlineUsed bool
	// served is set when the state is the first field of a servedState
	// (newServedState).
	served bool
	// left is set once the request has left the door (door.go).
	left bool
	// hooked is set when the state is the first field of a hookedState
	// (door.go, newState).
	hooked bool
	// spanTaken is set once a hook took the span memory of the
	// hookedState (hookmem.Take). It is kept here, beside the flags
	// above in what was their padding, rather than in hookedState, whose
	// size class a field more would change.
	spanTaken bool
	// idHeader is the value of the X-Request-ID header of its answer,
	// carried here for the same reason.
	idHeader [1]string
	// batch is what the operations of an HTTP batch share (batch.go),
	// nil outside one.
	batch *batchLimits
}

// servedState is the state of a request the pipeline executes, with the
// execution context of its first operation (timeout.go): one allocation
// rather than two. A streaming operation's state, held as long as its
// subscription runs, goes without it.
type servedState struct {
	st       requestState // first: newServedState hands out its address
	deadline deadlineCtx
}

// newServedState returns a fresh request state with room for an
// execution context.
func newServedState() *requestState {
	s := &servedState{}
	s.st.served = true
	return &s.st
}

// newDeadline returns storage for an execution context (watchdog.startIn):
// the one carried with the state the first time, when it has one.
func (st *requestState) newDeadline() *deadlineCtx {
	if !st.deadlineUsed {
		switch {
		case st.hooked:
			st.deadlineUsed = true
			return &st.hookedState().deadline
		case st.served:
			st.deadlineUsed = true
			return &(*servedState)(unsafe.Pointer(st)).deadline
		}
	}
	return new(deadlineCtx)
}

// stateCtx is a context holding a request state under stateKey.
type stateCtx struct {
	context.Context
	st *requestState
}

// Value returns the request state for stateKey, else the parent's value.
func (c *stateCtx) Value(key any) any {
	if _, ok := key.(stateKey); ok {
		return c.st
	}
	return c.Context.Value(key)
}

// withState returns a child of ctx holding st.
func withState(ctx context.Context, st *requestState) context.Context {
	if st.ctx.st != nil {
		return context.WithValue(ctx, stateKey{}, st)
	}
	st.ctx = stateCtx{Context: ctx, st: st}
	return &st.ctx
}

func stateFrom(ctx context.Context) *requestState {
	st, _ := ctx.Value(stateKey{}).(*requestState)
	return st
}

// RequestInfoFrom returns the information of the request being served, or
// nil when ctx does not belong to a graft request.
func RequestInfoFrom(ctx context.Context) *RequestInfo {
	if st := stateFrom(ctx); st != nil {
		return &st.info
	}
	return nil
}

func noHeader(string) string { return "" }
