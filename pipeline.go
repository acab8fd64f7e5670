package graft

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/graftgql/graft/internal/gqlerr"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/graftgql/graft/graphiql"
	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/internal/httpapi"
	"github.com/graftgql/graft/internal/pqattach"
	"github.com/graftgql/graft/internal/pqstate"
	"github.com/graftgql/graft/limits"
)

// serve runs raw through the door and the pipeline and writes the
// complete answer into resp.
func (r *Router) serve(ctx context.Context, raw *httpapi.RawRequest, resp *httpapi.Response) {
	st := r.newState()
	r.serveWith(ctx, raw, resp, st)
	r.leave(st, resp)
}

// serveWith is the pipeline of one request from the door's enter, with st
// its fresh state (ServeHTTP allocates it with the response). The caller
// calls leave once the answer is final: ServeHTTP first reserves the
// answer's bytes, and a subscription leaves when its stream ends.
func (r *Router) serveWith(ctx context.Context, raw *httpapi.RawRequest, resp *httpapi.Response, st *requestState) {
	ctx = r.enter(ctx, st, raw, resp)
	defer r.containPanic(ctx, resp, httpapi.ContentTypeJSON)
	if raw.Refusal != nil {
		r.fail(resp, httpapi.ContentTypeJSON, raw.Refusal)
		return
	}
	ctx, media, ok := r.accept(ctx, raw, resp, st)
	if !ok {
		return
	}
	raw.Texts = r.texts
	if httpapi.IsBatch(raw) {
		r.serveBatch(ctx, st, raw, media, resp)
		return
	}
	var req httpapi.Request
	if !r.decode(raw, media, resp, &req) {
		return
	}
	r.run(ctx, st, &req, media, resp)
}

// accept routes a request, negotiates its media type, and runs CSRF
// prevention and admit. When ok is false resp holds the answer already.
func (r *Router) accept(ctx context.Context, raw *httpapi.RawRequest, resp *httpapi.Response, st *requestState) (_ context.Context, media string, ok bool) {
	switch {
	case raw.Path == r.cfg.Path:
	case r.graphiql != nil && raw.Path == r.cfg.GraphiQL.Path:
		r.serveGraphiQL(raw, resp)
		return ctx, "", false
	case r.graphiqlAssets != "" && strings.HasPrefix(raw.Path, r.graphiqlAssets):
		r.serveGraphiQLAsset(raw, resp)
		return ctx, "", false
	default:
		r.fail(resp, httpapi.ContentTypeJSON, &httpapi.Error{Status: http.StatusNotFound, Err: gqlerr.New(gqlerr.BadRequest, "Not found")})
		return ctx, "", false
	}
	media, ok = httpapi.Negotiate(raw.Accept)
	if !ok {
		r.fail(resp, httpapi.ContentTypeJSON, &httpapi.Error{Status: http.StatusNotAcceptable,
			Err: gqlerr.New(gqlerr.NotAcceptable, "The Accept header allows neither application/graphql-response+json nor application/json")})
		return ctx, "", false
	}
	ct := httpapi.ContentType(media)
	if r.cfg.CSRF != nil {
		if e := r.checkCSRF(raw); e != nil {
			r.fail(resp, ct, e)
			return ctx, "", false
		}
	}
	ctx, e := r.admit(ctx, raw)
	if e != nil {
		r.fail(resp, ct, e)
		return ctx, "", false
	}
	if e := r.uriTooLong(raw); e != nil {
		r.fail(resp, ct, e)
		return ctx, "", false
	}
	return ctx, media, true
}

// decode decodes raw into req; false means resp holds the error.
func (r *Router) decode(raw *httpapi.RawRequest, media string, resp *httpapi.Response, req *httpapi.Request) bool {
	d, e := httpapi.Decode(raw)
	if e != nil {
		r.fail(resp, httpapi.ContentType(media), r.decodeFailed(e, media))
		return false
	}
	*req = d
	return true
}

// admit runs the Auth hook of a request that entered through the door
// (its context carries st), after starting the layer so the hook can read
// application services. On a refusal the context returned is ctx.
func (r *Router) admit(ctx context.Context, raw *httpapi.RawRequest) (context.Context, *httpapi.Error) {
	if r.cfg.Auth == nil {
		return ctx, nil
	}
	if e := r.startLayer(ctx); e != nil {
		return ctx, e
	}
	actx, err := r.cfg.Auth(ctx, authRequest(raw))
	if err != nil {
		return ctx, unauthenticated(err)
	}
	if actx != nil && actx != ctx {
		// The hook accepted a user: the answer is theirs alone.
		ctx = context.WithValue(actx, authAcceptedKey{}, true)
	}
	return ctx, nil
}

// startLayer starts the layer unless it is started, and answers 503 while
// it cannot be: the request is fine, the service is not ready.
func (r *Router) startLayer(ctx context.Context) *httpapi.Error {
	if r.layer.ready.Load() != nil {
		return nil // started: no closure to allocate
	}
	err := r.layer.ensureStarted(ctx, func(err error) {
		r.cfg.Logger.ErrorContext(ctx, "graft: layer failed to start", "error", err)
	})
	if err == nil {
		return nil
	}
	switch {
	case ctx.Err() == nil:
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		// The request's own time ran out while the services were starting.
		return &httpapi.Error{Status: http.StatusServiceUnavailable,
			Err: gqlerr.New(gqlerr.RequestTimeout, "Request timed out.")}
	default:
		return &httpapi.Error{Status: http.StatusServiceUnavailable,
			Err: gqlerr.New(gqlerr.RequestCancelled, "Request cancelled.")}
	}
	retry := strconv.Itoa(int((r.layer.retryIn() + time.Second - 1) / time.Second))
	return &httpapi.Error{Status: http.StatusServiceUnavailable, Header: http.Header{"Retry-After": {retry}},
		Err: gqlerr.New(gqlerr.ServiceUnavailable, "The service is not ready: its services could not be started. Try again later.")}
}

// run executes a decoded request: persisted-query resolution, the
// document cache, operation selection, variables, limits (plan), then
// execution (execute). The two are separate functions so that the checks'
// stack frame is gone while the operation executes: deep executions then
// fit the goroutine's first stack.
//
// The request entered through the door (enter) and leaves through it
// (leave) once its answer is final.
func (r *Router) run(ctx context.Context, st *requestState, req *httpapi.Request, media string, resp *httpapi.Response) {
	ph := st.ph
	ph.rebase(ctx)
	var p runPlan
	if !r.plan(ctx, st, req, media, resp, ph, &p) {
		return
	}
	if p.op.Kind() == ast.Subscription && p.op.Rooted() {
		r.startSubscription(p.ctx, p.op, p.vars, resp)
		return
	}
	if p.op.Incremental() {
		if st.batch != nil {
			r.fail(resp, httpapi.ContentType(media), refuseBatchedIncremental())
			return
		}
		if sink := sinkFrom(ctx); sink != nil && sink.format != 0 {
			r.startIncremental(st, req, media, resp, &p, sink) // incremental.go
			return
		}
	}
	r.execute(st, req, media, resp, &p)
}

// runPlan is what plan hands to execute.
type runPlan struct {
	ctx          context.Context // with the hooks' and the Auth hook's values
	op           *exec.Operation
	vars         map[string]any
	ext          []byte // top-level extensions of the answer
	cacheControl string // the persisted query's Cache-Control
}

// plan runs every step before execution; false means resp holds the
// answer (an error) already.
func (r *Router) plan(ctx context.Context, st *requestState, req *httpapi.Request, media string, resp *httpapi.Response, ph *phaseRun, p *runPlan) bool {
	ct := httpapi.ContentType(media)
	if e := ph.before(ctx, PhaseReceived); e != nil {
		r.fail(resp, ct, e)
		return false
	}
	query := req.Query
	var res pqstate.Resolution
	if req.DocumentID != "" && query != "" {
		r.fail(resp, ct, &httpapi.Error{Status: r.status(httpapi.Malformed, media),
			Err: gqlerr.New(gqlerr.BadRequest, "Send either query or documentId, not both")})
		return false
	}
	if r.pq != nil {
		var err error
		if req.DocumentID != "" {
			res, err = r.pq.ResolveDocumentID(ctx, req.IsGet, req.DocumentID)
		} else if req.HasPersistedQuery {
			res, err = r.pq.ResolveExtension(ctx, req.IsGet, req.Query, pqstate.Extension(req.PersistedQuery))
		} else {
			res, err = r.pq.Resolve(ctx, req.IsGet, req.Query, req.Extensions)
		}
		ph.notePersisted(&res, err)
		if err != nil {
			r.failPQ(resp, ct, err)
			return false
		}
		query = res.Query
	} else if req.HasPersistedQuery || req.DocumentID != "" || pqstate.Requested(req.Extensions) {
		r.fail(resp, ct, pqError(pqstate.ErrNotSupported()))
		return false
	}
	if query == "" {
		r.fail(resp, ct, &httpapi.Error{Status: r.status(httpapi.Malformed, media),
			Err: gqlerr.New(gqlerr.BadRequest, "Missing query: send a GraphQL document in the query parameter")})
		return false
	}
	if e := ph.before(ctx, PhaseParsed); e != nil {
		r.fail(resp, ct, e)
		return false
	}
	ph.noteDocument(query)
	slot := res.Slot
	if slot == nil && query == req.Query {
		slot = req.QuerySlot // an escaped query's entry in r.texts (or nil)
	}
	d, errs := r.persistedDocument(query, slot)
	if errs != nil {
		r.failList(resp, ct, r.status(documentFailure(errs), media), errs)
		return false
	}
	if e := ph.before(ctx, PhaseValidated); e != nil {
		r.fail(resp, ct, e)
		return false
	}
	op, gerr := d.doc.Operation(req.OperationName)
	if gerr != nil {
		r.failList(resp, ct, r.status(httpapi.NoOperation, media), gqlerror.List{gerr})
		return false
	}
	ph.setOperation(op.AST())
	switch op.Kind() {
	case ast.Mutation:
		if req.IsGet {
			r.fail(resp, ct, &httpapi.Error{Status: http.StatusMethodNotAllowed, Header: http.Header{"Allow": {"POST"}},
				Err: gqlerr.New(gqlerr.BadRequest, "Mutations cannot run over GET: use POST")})
			return false
		}
	case ast.Subscription:
		if op.Rooted() && sinkFrom(ctx) == nil {
			r.fail(resp, ct, &httpapi.Error{Status: http.StatusBadRequest,
				Err: gqlerr.New(gqlerr.BadRequest, "Subscriptions are not supported over this transport")})
			return false
		}
	}
	vars, verrs := r.engine.CoerceVariables(op, req.Variables)
	if len(verrs) > 0 {
		r.failList(resp, ct, r.status(httpapi.BadVariables, media), verrs)
		return false
	}
	st.info.OperationName, st.info.Variables = req.OperationName, vars
	a, ok := d.static[op.AST()]
	if !ok {
		a = limits.Analyze(r.schema, d.doc.AST(), op.AST(), vars)
	}
	st.info.Analysis = a
	if e := ph.before(ctx, PhaseAnalyzed); e != nil {
		r.fail(resp, ct, e)
		return false
	}
	if lerr := r.cfg.Complexity.Check(a); lerr != nil {
		r.failList(resp, ct, r.status(httpapi.LimitExceeded, media), gqlerror.List{lerr})
		return false
	}
	if st.batch != nil {
		if lerr := st.batch.charge(r.cfg.Complexity, a); lerr != nil {
			r.failList(resp, ct, r.status(httpapi.LimitExceeded, media), gqlerror.List{lerr})
			return false
		}
	}
	// Only a query the limits accept is registered.
	if res.Register {
		r.pq.Register(ctx, st.info.RemoteAddr, res.Hash, strings.Clone(query)) // query may share the body's memory
	}
	var ext []byte
	if r.cfg.ReportComplexity {
		ext = append(append([]byte(`{"complexity":`), a.AppendJSON(nil)...), '}')
	}
	if e := r.startLayer(ctx); e != nil {
		r.fail(resp, ct, e)
		return false
	}
	if stateFrom(ctx) != st {
		ctx = withState(ctx, st)
	}
	if e := ph.before(ctx, PhaseExecuted); e != nil {
		r.fail(resp, ct, e)
		return false
	}
	*p = runPlan{ctx: ph.context(ctx), op: op, vars: vars, ext: ext, cacheControl: res.CacheControl}
	return true
}

// persistedDocument returns the document for query as document does,
// through slot when the query came from an entry of the memory store or
// of the router's query texts: the document attached there, when it is
// this router's and the router still holds it, is found without a second
// lookup; otherwise the one the cache gives is attached. An attachment
// leads to a document only while the router holds it (document.ref), so
// the document cache alone bounds the documents held.
func (r *Router) persistedDocument(query string, slot *pqattach.Slot) (*document, gqlerror.List) {
	if slot == nil {
		return r.document(query)
	}
	if d := r.attached(slot); d != nil {
		return d, nil
	}
	d, errs := r.document(query)
	if errs == nil && d.held() {
		slot.Store(&pqattach.Attachment{Owner: r.pqOwner, Value: d.ref})
	}
	return d, errs
}

// attached returns the document slot leads to when the attachment is this
// router's and the router still holds the document; nil otherwise.
func (r *Router) attached(slot *pqattach.Slot) *document {
	if a := slot.Load(); a != nil && a.Owner == any(r.pqOwner) {
		if ref, ok := a.Value.(*docRef); ok {
			return ref.p.Load()
		}
	}
	return nil
}

// execute runs the planned operation under Config.Timeout and writes its
// answer into resp.
func (r *Router) execute(st *requestState, req *httpapi.Request, media string, resp *httpapi.Response, p *runPlan) {
	ctx := p.ctx
	if ans := r.engine.Cached(p.op); ans != nil && (st.batch == nil || len(ans) <= st.batch.left) {
		// A cached answer (introspection) runs no resolver: there is no
		// timeout to keep, and a transport that allows it sends the
		// cached bytes as they are.
		resp.Status, resp.ContentType = http.StatusOK, httpapi.ContentType(media)
		if p.ext == nil && resp.MayShare {
			resp.Body, resp.Shared = ans[:len(ans):len(ans)], true
		} else {
			resp.Body, _ = r.engine.Run(ctx, p.op, p.vars, resp.Body[:0], p.ext)
		}
		r.setCacheControl(ctx, st, req, p.op.AST(), p.cacheControl, false, resp) // cachehints.go
		return
	}
	if r.cfg.Timeout >= watchdogMinTimeout {
		d := r.watchdog.startIn(st.newDeadline(), ctx, r.cfg.Timeout)
		defer d.finish()
		ctx = d
	} else {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.cfg.Timeout)
		defer cancel()
	}
	var body []byte
	var hasErrors bool
	switch {
	case st.batch != nil:
		var errs *[]*gqlerror.Error
		if st.ph != nil {
			errs = resp.ErrorSink()
		}
		var spent bool
		body, hasErrors, spent = r.engine.RunWithin(ctx, p.op, p.vars, resp.Body[:0], p.ext, errs, st.batch.left)
		if spent {
			st.batch.left = 0
		}
	case st.ph == nil:
		body, hasErrors = r.engine.Run(ctx, p.op, p.vars, resp.Body[:0], p.ext)
	default:
		// The hooks see the answer's errors as values.
		body, hasErrors = r.engine.RunReporting(ctx, p.op, p.vars, resp.Body[:0], p.ext, resp.ErrorSink())
	}
	resp.Status = http.StatusOK
	if hasErrors {
		resp.Status = r.status(httpapi.Partial, media)
	}
	resp.ContentType = httpapi.ContentType(media)
	resp.Body = body
	r.setCacheControl(ctx, st, req, p.op.AST(), p.cacheControl, hasErrors, resp) // cachehints.go
}

// fail makes resp the answer to the request error e: its status, its
// headers added to those already set (the request ID, a resolver's
// cookies, CORS), and its error, which the hooks see as a value. A
// Cache-Control set for an answer that e replaces is dropped.
func (r *Router) fail(resp *httpapi.Response, ct string, e *httpapi.Error) {
	resp.Status = e.Status
	resp.ContentType = ct
	resp.Header = mergeHeader(resp.Header, e.Header)
	resp.Body = appendErrors(resp.Reuse(), e.Err)
	resp.SetErrors(e.Err)
}

func (r *Router) failList(resp *httpapi.Response, ct string, status int, errs gqlerror.List) {
	resp.Status = status
	resp.ContentType = ct
	if resp.Header != nil {
		resp.Header.Del("Cache-Control")
	}
	resp.Body = gqlerr.AppendResponse(resp.Reuse(), errs, nil)
	resp.SetErrors(errs...)
}

// mergeHeader adds the entries of add to h (allocated when nil), which
// loses its Cache-Control: the answer changed.
func mergeHeader(h, add http.Header) http.Header {
	if h == nil {
		if add == nil {
			return nil
		}
		h = make(http.Header, len(add))
	}
	h.Del("Cache-Control")
	for k, v := range add {
		h[k] = append(h[k][:0:0], v...)
	}
	return h
}

// appendErrors appends a response body {"errors":[...]} holding errs.
func appendErrors(buf []byte, errs ...*gqlerror.Error) []byte {
	return gqlerr.AppendResponse(buf, errs, nil)
}

func (r *Router) failPQ(resp *httpapi.Response, ct string, err error) {
	var pe *pqstate.Error
	if !errors.As(err, &pe) {
		r.cfg.Logger.Error("graft: persisted queries", "error", err)
		r.fail(resp, ct, internalError())
		return
	}
	r.fail(resp, ct, pqError(pe))
}

// pqError is the answer to a persisted-query error, with its Allow and
// Cache-Control headers.
func pqError(pe *pqstate.Error) *httpapi.Error {
	e := &httpapi.Error{Status: pe.Status, Err: pe.Err}
	if pe.Allow != "" || pe.CacheControl != "" {
		e.Header = make(http.Header, 2)
		if pe.Allow != "" {
			e.Header.Set("Allow", pe.Allow)
		}
		if pe.CacheControl != "" {
			e.Header.Set("Cache-Control", pe.CacheControl)
		}
	}
	return e
}

// unauthenticated is the 401 answer to an error of the Auth hook, with
// the WWW-Authenticate challenge of an *AuthError, else "Bearer".
func unauthenticated(err error) *httpapi.Error {
	challenge := "Bearer"
	var ae *AuthError
	if errors.As(err, &ae) && ae.Challenge != "" {
		challenge = ae.Challenge
	}
	e := &httpapi.Error{Status: http.StatusUnauthorized, Header: http.Header{"Www-Authenticate": {challenge}}}
	var ge *gqlerror.Error
	var ee interface {
		error
		Extensions() map[string]any
	}
	switch {
	case errors.As(err, &ge):
		e.Err = gqlerr.WithCode(&gqlerror.Error{Message: ge.Message, Extensions: maps.Clone(ge.Extensions)}, gqlerr.Unauthenticated)
	case errors.As(err, &ee):
		e.Err = gqlerr.WithCode(&gqlerror.Error{Message: ee.Error(), Extensions: maps.Clone(ee.Extensions())}, gqlerr.Unauthenticated)
	default:
		e.Err = gqlerr.New(gqlerr.Unauthenticated, err.Error())
	}
	return e
}

// checkCSRF refuses requests a browser may send cross-site without a
// preflight unless they carry a preflight header.
func (r *Router) checkCSRF(raw *httpapi.RawRequest) *httpapi.Error {
	if raw.Method == http.MethodPost && !isSimpleContentType(raw.ContentType) {
		return nil
	}
	if raw.Header != nil {
		for _, h := range r.cfg.CSRF.RequiredHeaders {
			if raw.Header(h) != "" {
				return nil
			}
		}
	}
	return &httpapi.Error{Status: http.StatusBadRequest, Err: gqlerr.New(gqlerr.CSRFPreventionBlocked,
		"This operation has been blocked as a potential Cross-Site Request Forgery (CSRF). "+
			"Send a non-empty "+strings.Join(r.cfg.CSRF.RequiredHeaders, " or ")+" header, or a POST with Content-Type: application/json.")}
}

// isSimpleContentType reports whether a browser sends this Content-Type
// cross-site without a CORS preflight.
func isSimpleContentType(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	switch strings.ToLower(strings.TrimSpace(mt)) {
	case "", "text/plain", "multipart/form-data", "application/x-www-form-urlencoded":
		return true
	}
	return false
}

func (r *Router) serveGraphiQL(raw *httpapi.RawRequest, resp *httpapi.Response) {
	if raw.Method != http.MethodGet && raw.Method != http.MethodHead {
		resp.Status = http.StatusMethodNotAllowed
		resp.SetHeader("Allow", "GET, HEAD")
		resp.ContentType = httpapi.ContentTypeJSON
		resp.Body = appendErrors(resp.Body[:0], gqlerr.New(gqlerr.BadRequest, "GraphiQL is served over GET"))
		return
	}
	// The page and its headers (the Content-Security-Policy above all)
	// come from package graphiql; the pipeline's writers set Content-Type,
	// Cache-Control and Content-Length themselves.
	resp.Status = http.StatusOK
	resp.ContentType = graphiql.ContentType
	resp.Header = make(http.Header, len(r.graphiql.Header))
	for k, v := range r.graphiql.Header {
		switch k {
		case "Content-Type", "Content-Length":
		default:
			resp.Header[k] = v
		}
	}
	resp.Body = append(resp.Body[:0], r.graphiql.Body...)
}

// bufPool recycles response and request body buffers.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// maxPooledResponse is the largest response buffer put back in bufPool: a
// larger one is let go, so the pool keeps no large buffers.
const maxPooledResponse = 1 << 20

// containPanic, deferred, turns a panic anywhere in the pipeline into the
// generic internal error, and logs the panic with its stack.
func (r *Router) containPanic(ctx context.Context, resp *httpapi.Response, ct string) {
	if p := recover(); p != nil {
		stack := debug.Stack()
		r.cfg.Logger.ErrorContext(ctx, "graft: panic serving request", "panic", p, "stack", string(stack))
		r.reportPanic(ctx, p, stack)
		r.fail(resp, ct, internalError())
	}
}

// internalError is the answer to an unexpected failure: the service's 400
// with a generic message; the detail goes to the log.
func internalError() *httpapi.Error {
	return &httpapi.Error{Status: http.StatusBadRequest, Err: gqlerr.Internal(nil)}
}
