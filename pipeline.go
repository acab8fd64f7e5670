package graft

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/graftgql/graft/httpapi"
	"github.com/graftgql/graft/limits"
	"github.com/graftgql/graft/persisted"
)

// Do runs the request through the router's pipeline and returns the
// response. It is what every transport adapter calls; req.Body must
// already be read with Config.MaxBodyBytes applied.
func (r *Router) Do(ctx context.Context, req *httpapi.RawRequest) *httpapi.Response {
	resp := &httpapi.Response{}
	r.serve(ctx, req, resp)
	return resp
}

// DoInto is Do writing into resp, whose fields it overwrites and whose
// Body capacity it reuses, so an adapter can pool responses.
func (r *Router) DoInto(ctx context.Context, req *httpapi.RawRequest, resp *httpapi.Response) {
	body := resp.Body[:0]
	*resp = httpapi.Response{Body: body}
	r.serve(ctx, req, resp)
}

func (r *Router) serve(ctx context.Context, raw *httpapi.RawRequest, resp *httpapi.Response) {
	defer func() {
		if p := recover(); p != nil {
			r.cfg.Logger.ErrorContext(ctx, "graft: panic serving request", "panic", p, "stack", string(debug.Stack()))
			r.fail(resp, httpapi.ContentTypeJSON, &httpapi.Error{Status: http.StatusBadRequest,
				Err: httpapi.NewError(httpapi.CodeInternalServerError, "Internal server error")})
		}
	}()
	switch {
	case raw.Path == r.cfg.Path:
	case r.graphiql != nil && raw.Path == r.cfg.GraphiQL.Path:
		r.serveGraphiQL(raw, resp)
		return
	default:
		resp.Status = http.StatusNotFound
		resp.ContentType = httpapi.ContentTypeJSON
		resp.Body = httpapi.AppendErrors(resp.Body, httpapi.NewError(httpapi.CodeBadRequest, "Not found"))
		return
	}
	media, ok := httpapi.Negotiate(raw.Accept)
	if !ok {
		r.fail(resp, httpapi.ContentTypeJSON, &httpapi.Error{Status: http.StatusNotAcceptable,
			Err: httpapi.NewError(httpapi.CodeNotAcceptable, "The Accept header allows neither application/graphql-response+json nor application/json")})
		return
	}
	ct := httpapi.ContentType(media)
	if r.cfg.CSRF != nil {
		if e := r.checkCSRF(raw); e != nil {
			r.fail(resp, ct, e)
			return
		}
	}
	if r.cfg.Auth != nil {
		actx, err := r.cfg.Auth(ctx, raw)
		if err != nil {
			r.fail(resp, ct, unauthenticated(err))
			return
		}
		if actx != nil {
			ctx = actx
		}
	}
	req, e := httpapi.Decode(raw)
	if e != nil {
		r.fail(resp, ct, e)
		return
	}
	header := raw.Header
	if header == nil {
		header = noHeader
	}
	r.run(ctx, &req, header, media, resp)
}

// run executes a decoded request: persisted-query resolution, the
// document cache, operation selection, variables, limits and execution.
func (r *Router) run(ctx context.Context, req *httpapi.Request, header func(string) string, media string, resp *httpapi.Response) {
	ct := httpapi.ContentType(media)
	query := req.Query
	var res persisted.Resolution
	if r.pq != nil {
		var err error
		if req.HasPersistedQuery {
			res, err = r.pq.ResolveExtension(ctx, req.IsGet, req.Query, persisted.Extension(req.PersistedQuery))
		} else {
			res, err = r.pq.Resolve(ctx, req.IsGet, req.Query, req.Extensions)
		}
		if err != nil {
			r.failPQ(resp, ct, err)
			return
		}
		query = res.Query
	} else if req.HasPersistedQuery || persisted.Requested(req.Extensions) {
		r.fail(resp, ct, pqError(persisted.ErrNotSupported()))
		return
	}
	if query == "" {
		r.fail(resp, ct, &httpapi.Error{Status: http.StatusBadRequest,
			Err: httpapi.NewError(httpapi.CodeBadRequest, "Missing query: send a GraphQL document in the query parameter")})
		return
	}
	d, errs := r.document(query)
	if errs != nil {
		r.failList(resp, ct, r.requestErrorStatus(media), errs)
		return
	}
	if res.Register {
		r.pq.Register(ctx, res.Hash, query)
	}
	op, gerr := d.doc.Operation(req.OperationName)
	if gerr != nil {
		r.failList(resp, ct, r.requestErrorStatus(media), gqlerror.List{gerr})
		return
	}
	switch op.Kind() {
	case ast.Mutation:
		if req.IsGet {
			r.fail(resp, ct, &httpapi.Error{Status: http.StatusMethodNotAllowed, Allow: "POST",
				Err: httpapi.NewError(httpapi.CodeBadRequest, "Mutations cannot run over GET: use POST")})
			return
		}
	case ast.Subscription:
		if sinkFrom(ctx) == nil {
			r.fail(resp, ct, &httpapi.Error{Status: http.StatusBadRequest,
				Err: httpapi.NewError(httpapi.CodeBadRequest, "Subscriptions are not supported over this transport")})
			return
		}
	}
	vars, verrs := r.engine.CoerceVariables(op, req.Variables)
	if len(verrs) > 0 {
		r.failList(resp, ct, r.requestErrorStatus(media), verrs)
		return
	}
	st := &requestState{layer: r.layer, info: RequestInfo{Header: header, OperationName: req.OperationName, Variables: vars}}
	a, ok := d.static[op.AST()]
	if !ok {
		a = limits.Analyze(r.schema, d.doc.AST(), op.AST(), vars)
	}
	st.info.Analysis = a
	if lerr := r.cfg.Complexity.Check(a); lerr != nil {
		r.failList(resp, ct, http.StatusBadRequest, gqlerror.List{lerr})
		return
	}
	var ext []byte
	if r.cfg.ReportComplexity {
		ext = append(append([]byte(`{"complexity":`), a.AppendJSON(nil)...), '}')
	}
	if err := r.layer.Start(ctx); err != nil {
		r.cfg.Logger.ErrorContext(ctx, "graft: layer failed to start", "error", err)
		r.fail(resp, ct, internalError())
		return
	}
	ctx = context.WithValue(ctx, stateKey{}, st)
	if op.Kind() == ast.Subscription {
		r.startSubscription(ctx, op, vars, resp)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	body := r.engine.Execute(ctx, op, vars, resp.Body[:0], ext)
	resp.Status = http.StatusOK
	resp.ContentType = ct
	resp.Body = body
	// Errors, when there are any, lead the body: {"errors":[...],"data":...}.
	if res.CacheControl != "" && op.Kind() == ast.Query && !bytes.HasPrefix(body, []byte(`{"errors"`)) {
		resp.CacheControl = res.CacheControl
	}
}

// requestErrorStatus is the status of parse, validation and variable
// errors: 400, or 200 for application/json with Config.SpecStatusCodes.
func (r *Router) requestErrorStatus(media string) int {
	if r.cfg.SpecStatusCodes && media == httpapi.MediaJSON {
		return http.StatusOK
	}
	return http.StatusBadRequest
}

func (r *Router) fail(resp *httpapi.Response, ct string, e *httpapi.Error) {
	resp.Status = e.Status
	resp.ContentType = ct
	resp.Allow = e.Allow
	resp.Body = httpapi.AppendErrors(resp.Body[:0], e.Err)
}

func (r *Router) failList(resp *httpapi.Response, ct string, status int, errs gqlerror.List) {
	resp.Status = status
	resp.ContentType = ct
	resp.Body = httpapi.AppendErrors(resp.Body[:0], errs...)
}

func (r *Router) failPQ(resp *httpapi.Response, ct string, err error) {
	var pe *persisted.Error
	if !errors.As(err, &pe) {
		r.cfg.Logger.Error("graft: persisted queries", "error", err)
		r.fail(resp, ct, internalError())
		return
	}
	r.fail(resp, ct, pqError(pe))
	resp.CacheControl = pe.CacheControl
}

func pqError(pe *persisted.Error) *httpapi.Error {
	return &httpapi.Error{Status: pe.Status, Allow: pe.Allow, Err: pe.Err}
}

func unauthenticated(err error) *httpapi.Error {
	var ge *gqlerror.Error
	if errors.As(err, &ge) {
		if ge.Extensions == nil {
			ge.Extensions = map[string]any{}
		}
		if _, ok := ge.Extensions["code"]; !ok {
			ge.Extensions["code"] = httpapi.CodeUnauthenticated
		}
		return &httpapi.Error{Status: http.StatusUnauthorized, Err: ge}
	}
	return &httpapi.Error{Status: http.StatusUnauthorized, Err: httpapi.NewError(httpapi.CodeUnauthenticated, err.Error())}
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
	return &httpapi.Error{Status: http.StatusBadRequest, Err: httpapi.NewError(httpapi.CodeCSRFPreventionBlocked,
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
		resp.Allow = "GET, HEAD"
		resp.ContentType = httpapi.ContentTypeJSON
		resp.Body = httpapi.AppendErrors(resp.Body[:0], httpapi.NewError(httpapi.CodeBadRequest, "GraphiQL is served over GET"))
		return
	}
	resp.Status = http.StatusOK
	resp.ContentType = "text/html; charset=utf-8"
	resp.Body = append(resp.Body[:0], r.graphiql...)
}

// bufPool recycles response and request body buffers.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// containPanic, deferred, turns a panic anywhere in the pipeline into the
// generic internal error, and logs the panic with its stack.
func (r *Router) containPanic(ctx context.Context, resp *httpapi.Response, ct string) {
	if p := recover(); p != nil {
		r.cfg.Logger.ErrorContext(ctx, "graft: panic serving request", "panic", p, "stack", string(debug.Stack()))
		r.fail(resp, ct, internalError())
	}
}

// internalError is the answer to an unexpected failure: the service's 400
// with a generic message; the detail goes to the log.
func internalError() *httpapi.Error {
	return &httpapi.Error{Status: http.StatusBadRequest,
		Err: httpapi.NewError(httpapi.CodeInternalServerError, "Internal server error")}
}
