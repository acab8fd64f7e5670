package graft

import (
	"context"
	"net/http"
	"unsafe"

	"github.com/graftgql/graft/internal/bodylimit"
	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/hookmem"
	"github.com/graftgql/graft/internal/httpapi"
)

// The door: every request, on every transport (net/http, the adapters,
// WebHandler, Execute, each operation over WebSocket, SSE or multipart,
// each operation of an HTTP batch), enters the pipeline through enter and
// leaves it through leave. enter attaches the request state (so
// graft.Service and RequestInfoFrom work in every resolver), the request
// ID and the hooks' run; leave sets the request ID header and closes the
// hooks' run (PhaseAnswered, which the access log and the metrics observe).
// A request refused before it is decoded (bad JSON, CSRF, Auth, 404, 406,
// 413, 414, 415, 503) passes both, so it is logged, measured and carries
// its X-Request-ID like any other.

// hookedState is a request's state with its hooks' run and the memory
// of its request ID, allocated together when the router has hooks: one
// allocation per request rather than three. span is memory a hook may
// take (hookmem.Take): graftotel's span of a request it does not record.
// With the allocation's header (8 bytes for an object of pointers over
// 512 bytes) the whole is 1,024 bytes, a size class: a field more moves
// every hooked request to the next class, 128 bytes larger.
type hookedState struct {
	st       requestState // first: newState hands out its address
	ph       phaseRun
	id       [32]byte
	deadline deadlineCtx // as servedState's
	span     hookmem.Span
}

func init() { hookmem.Take = takeHookMem }

// takeHookMem is hookmem.Take: the span memory of ev's request, once.
func takeHookMem(ev any) *hookmem.Span {
	e, _ := ev.(*HookEvent)
	if e == nil || e.run == nil || e.run.st == nil {
		return nil
	}
	h := e.run.st.hookedState()
	if h == nil || h.st.spanTaken {
		return nil
	}
	h.st.spanTaken = true
	return &h.span
}

// newState returns a fresh request state, with room for the hooks' run
// when the router has hooks.
func (r *Router) newState() *requestState {
	if !r.hooksEnabled() {
		return newServedState()
	}
	h := &hookedState{}
	h.st.hooked = true
	return &h.st
}

// hooked returns the hookedState st is the first field of, nil when st
// was not made by newState with hooks.
func (st *requestState) hookedState() *hookedState {
	if !st.hooked {
		return nil
	}
	return (*hookedState)(unsafe.Pointer(st))
}

// enter admits raw into the pipeline: it fills st (which must be fresh)
// from raw, puts it in the context, echoes the request ID on resp and
// begins the hooks' run. The context it returns is the one every later
// step runs with.
func (r *Router) enter(ctx context.Context, st *requestState, raw *httpapi.RawRequest, resp *httpapi.Response) context.Context {
	header := raw.Header
	if header == nil {
		header = noHeader
	}
	st.layer, st.info.Header = r.layer, header
	st.info.BytesReceived = int64(len(raw.Body)) // an upload's is set once read
	r.identify(raw, st)
	ctx = withState(ctx, st)
	st.attachResponse(resp)
	st.ph = r.beginPhases(ctx, st)
	return ctx
}

// leave closes a request that entered through enter once resp holds its
// complete answer (for a subscription, once its stream has ended): the
// hooks' PhaseAnswered, which may still refuse the answer, and the
// extensions set with SetExtension. It runs once per request.
func (r *Router) leave(st *requestState, resp *httpapi.Response) {
	if st.left {
		return
	}
	st.left = true
	if st.ph == nil {
		spliceExtensions(st, resp)
		return
	}
	st.ph.finish(resp)
}

// refuse answers a request that is refused as a whole before the pipeline
// decodes it (a transport's own limits: connections, in-flight requests,
// a body over the limit) through the door: it enters, fails with e,
// leaves, and returns the answer.
func (r *Router) refuse(ctx context.Context, raw *httpapi.RawRequest, ct string, e *httpapi.Error) *httpapi.Response {
	st := &requestState{}
	resp := &st.answer
	r.enter(ctx, st, raw, resp)
	r.fail(resp, ct, e)
	r.leave(st, resp)
	return resp
}

// rawView is the pipeline's view of req without its body.
func rawView(req *http.Request) *httpapi.RawRequest {
	return &httpapi.RawRequest{
		Method:      req.Method,
		Path:        req.URL.Path,
		RawQuery:    req.URL.RawQuery,
		ContentType: headerValue(req.Header, hdrContentType),
		Accept:      headerValue(req.Header, hdrAccept),
		Header:      headerLookup(req.Header).get,
		Remote:      req.RemoteAddr,
	}
}

// refuseHTTP writes the answer of refuse for a net/http request.
func (r *Router) refuseHTTP(w http.ResponseWriter, req *http.Request, e *httpapi.Error) {
	writeResponse(w, r.refuse(req.Context(), rawView(req), httpapi.ContentTypeGraphQLResponse, e))
}

// answerHTTP answers req through the door with the answer fill writes
// into resp (a request the pipeline does not run: an event-stream
// reservation, the end of an operation on one). fill gets the request's
// context, with its state.
func (r *Router) answerHTTP(w http.ResponseWriter, req *http.Request, fill func(ctx context.Context, resp *httpapi.Response)) {
	st := &requestState{}
	resp := &st.answer
	ctx := r.enter(req.Context(), st, rawView(req), resp)
	fill(ctx, resp)
	r.leave(st, resp)
	writeResponse(w, resp)
}

// rawFromHTTP fills the pipeline's view of req, reading a POST body with
// the router's size limit.
func (r *Router) rawFromHTTP(req *http.Request) (*httpapi.RawRequest, *httpapi.Error) {
	raw := &httpapi.RawRequest{
		Method:      req.Method,
		Path:        req.URL.Path,
		RawQuery:    req.URL.RawQuery,
		ContentType: req.Header.Get("Content-Type"),
		Accept:      req.Header.Get("Accept"),
		Header:      headerLookup(req.Header).get,
		Remote:      req.RemoteAddr,
	}
	if req.Method == http.MethodPost {
		body, tooLarge, err := bodylimit.ReadInto(nil, req.Body, req.ContentLength, r.cfg.MaxBodyBytes)
		switch {
		case tooLarge:
			return nil, httpapi.BodyTooLarge(r.cfg.MaxBodyBytes)
		case err != nil:
			return nil, &httpapi.Error{Status: http.StatusBadRequest, Err: gqlerr.New(gqlerr.BadRequest,
				"The request body could not be read")}
		}
		raw.Body = body
	}
	return raw, nil
}
