package graft

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/graftgql/graft/internal/gqlerr"

	"github.com/graftgql/graft/internal/bodylimit"
	"github.com/graftgql/graft/internal/dispatch"
	"github.com/graftgql/graft/internal/httpapi"
	"github.com/graftgql/graft/internal/transport/sse"
)

func init() {
	dispatch.Into = func(ctx context.Context, router any, raw *httpapi.RawRequest, resp *httpapi.Response) {
		router.(*Router).serveInto(ctx, raw, resp)
	}
}

// serveInto runs raw through the pipeline and writes the answer into resp,
// whose fields it overwrites and whose Body capacity it reuses. It is the
// entry of the transport adapters (see internal/dispatch) and the web
// handler; raw.Body must already be read with Config.MaxBodyBytes applied.
func (r *Router) serveInto(ctx context.Context, raw *httpapi.RawRequest, resp *httpapi.Response) {
	body := resp.Body[:0]
	*resp = httpapi.Response{Body: body}
	r.serve(ctx, raw, resp)
}

// ServeHTTP serves the GraphQL endpoint and GraphiQL over net/http.
func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.URL.Path == r.cfg.Path && !plainPost(req) && !r.uploadPost(req) && r.serveStream(w, req) {
		return
	}
	// The request's state and its answer in one allocation.
	st := r.newState()
	resp := &st.answer
	raw := httpapi.RawRequest{
		Method:      req.Method,
		Path:        req.URL.Path,
		RawQuery:    req.URL.RawQuery,
		ContentType: headerValue(req.Header, hdrContentType),
		Accept:      headerValue(req.Header, hdrAccept),
		Header:      headerLookup(req.Header).get,
		Remote:      req.RemoteAddr,
	}
	if !r.load.enter() {
		// Refused through the door, with nothing read.
		raw.Refusal = serverBusyError(msgTooManyInFlight)
		r.serveWith(req.Context(), &raw, resp, st)
		r.leave(st, resp)
		writeResponse(w, resp)
		return
	}
	defer r.load.leave()
	if r.takesUpload(&raw) {
		r.serveUploadHTTP(w, req, &raw, st) // upload.go
		return
	}
	var bp *[]byte // the request body's buffer, when there is a body
	if req.Method == http.MethodPost && raw.Path == r.cfg.Path {
		bp = bufPool.Get().(*[]byte)
		body, err := readBody(req, r.cfg.MaxBodyBytes, (*bp)[:0])
		if cap(body) <= maxPooledBody {
			*bp = body[:0] // a larger one is let go: the pool keeps no large buffers
		}
		if err != nil {
			bufPool.Put(bp)
			bp = nil
			raw.Refusal = err
		} else {
			raw.Body = body
			// The decoder unescapes the query into the buffer's spare
			// room rather than allocate (the buffer goes back to the
			// pool once the answer is complete).
			raw.Scratch = body[len(body):cap(body)]
		}
	}
	rb := bufPool.Get().(*[]byte)
	defer bufPool.Put(rb)
	resp.Body = (*rb)[:0]
	resp.MayShare = true // written below and let go: a cached answer is sent as it is
	var hdr http.Header  // the answer's headers (X-Request-ID), from a pool
	if r.cfg.RequestID {
		hdr = headerPool.Get().(http.Header)
		resp.Header = hdr
	}
	r.serveWith(req.Context(), &raw, resp, st)
	if bp != nil {
		// The answer holds nothing of the body: its buffer goes back now,
		// not after a write that may wait on a slow client.
		bufPool.Put(bp)
	}
	// A large answer is held until the client has read it: the total held
	// is bounded, so clients that do not read cannot pin memory. The
	// refusal is an answer the hooks see.
	n := len(resp.Body)
	held := r.load.hold(n)
	if !held {
		resp.Body = nil // let the large answer go before writing the refusal
		r.fail(resp, httpapi.ContentTypeJSON, serverBusyError(msgTooManyBuffered))
	}
	r.leave(st, resp)
	writeResponse(w, resp)
	if held {
		r.load.release(n)
	}
	if !resp.Shared && cap(resp.Body) <= maxPooledResponse {
		*rb = resp.Body[:0]
	}
	if hdr != nil {
		// Written: a resolver still running can no longer set a header
		// (SetResponseHeader reports false), and the map goes back.
		st.detachResponse()
		if len(hdr) <= maxPooledHeaders {
			clear(hdr)
			headerPool.Put(hdr)
		}
	}
}

// headerPool holds the header maps of answers served by ServeHTTP with
// request IDs on: each answer has the X-Request-ID header, and a map of
// its own would be an allocation per request.
var headerPool = sync.Pool{New: func() any { return make(http.Header, 4) }}

// maxPooledHeaders is the most headers an answer's map may have held to
// go back to headerPool: clear keeps a map's buckets, so one that
// resolvers grew large is dropped rather than kept.
const maxPooledHeaders = 16

// maxPooledBody is the largest request-body buffer put back in the pool.
const maxPooledBody = 64 << 10

// plainPost reports, cheaply, a request none of the streaming transports
// takes: a POST whose Accept header is one of the usual JSON ones and
// that carries no graphql-sse token (serveStream would answer false).
func plainPost(req *http.Request) bool {
	if req.Method != http.MethodPost || len(req.Header[hdrSSEToken]) > 0 {
		return false
	}
	accept := req.Header[hdrAccept]
	if len(accept) > 1 {
		return false
	}
	if len(accept) == 0 {
		return true
	}
	switch accept[0] {
	case httpapi.MediaJSON, httpapi.MediaGraphQLResponse, "*/*", "application/json; charset=utf-8",
		"application/graphql-response+json, application/json",
		"application/graphql-response+json; charset=utf-8, application/json; charset=utf-8":
		return true
	}
	return false
}

// readBody reads the request body into buf, refusing it with 413 as soon
// as more than limit bytes arrive (or when Content-Length says so, before
// reading anything).
func readBody(req *http.Request, limit int64, buf []byte) ([]byte, *httpapi.Error) {
	body, tooLarge, err := bodylimit.ReadInto(buf, req.Body, req.ContentLength, limit)
	switch {
	case tooLarge:
		return body, httpapi.BodyTooLarge(limit)
	case err != nil:
		return body, &httpapi.Error{Status: http.StatusBadRequest, Err: gqlerr.New(gqlerr.BadRequest,
			"The request body could not be read")}
	}
	return body, nil
}

var (
	hdrContentType   = http.CanonicalHeaderKey("Content-Type")
	ctGraphQL        = []string{httpapi.ContentTypeGraphQLResponse}
	ctJSON           = []string{httpapi.ContentTypeJSON}
	hdrContentLength = http.CanonicalHeaderKey("Content-Length")
	hdrAccept        = http.CanonicalHeaderKey("Accept")
	hdrSSEToken      = sse.TokenHeader
)

// headerValue is h.Get(key) for a key already in canonical form.
func headerValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// headerLookup is a request's header as RequestInfo.Header reads it.
type headerLookup http.Header

// get is http.Header.Get without its cost for a name already in canonical
// form, as hooks and resolvers mostly ask ("Authorization", "Traceparent"):
// such a name is looked up as it is, and only another one is canonicalized.
func (h headerLookup) get(name string) string {
	if v := h[name]; len(v) > 0 {
		return v[0]
	}
	switch name {
	case "Traceparent", "Tracestate", "Baggage", "Authorization", "Cookie":
		// Canonical, and asked for on most requests (tracing, auth):
		// a comparison rather than a walk through the name.
		return ""
	}
	if isCanonicalHeaderKey(name) {
		return ""
	}
	return http.Header(h).Get(name)
}

// isCanonicalHeaderKey reports whether name is unchanged by
// http.CanonicalHeaderKey as far as letter case goes: upper case first and
// after each hyphen, lower case elsewhere. (A name with a byte a header
// name cannot hold is not changed by it either, and is not found.)
func isCanonicalHeaderKey(name string) bool {
	upper := true
	for i := 0; i < len(name); i++ {
		c := name[i]
		if upper && 'a' <= c && c <= 'z' || !upper && 'A' <= c && c <= 'Z' {
			return false
		}
		upper = c == '-'
	}
	return true
}

func writeResponse(w http.ResponseWriter, resp *httpapi.Response) {
	h := w.Header()
	switch resp.ContentType {
	case httpapi.ContentTypeGraphQLResponse:
		h[hdrContentType] = ctGraphQL
	case httpapi.ContentTypeJSON:
		h[hdrContentType] = ctJSON
	default:
		h.Set(hdrContentType, resp.ContentType)
	}
	for k, v := range resp.Header {
		// Append: a wrapping middleware may have set the header already
		// (CORS sets Vary: Origin).
		if old := h[k]; len(old) > 0 {
			h[k] = append(old, v...)
		} else {
			h[k] = v
		}
	}
	// net/http measures small bodies itself; say the length of larger
	// ones so they are not sent chunked.
	if len(resp.Body) > 2048 {
		h[hdrContentLength] = contentLength(len(resp.Body))
	}
	w.WriteHeader(resp.Status)
	_, _ = w.Write(resp.Body)
}

// contentLengths caches Content-Length values by length (one entry per
// slot): answers to the same query have the same length, so most answers
// reuse a header value rather than allocate one.
var contentLengths [64]atomic.Pointer[lengthValue]

type lengthValue struct {
	n int
	v []string
}

// contentLength returns the header value of a body of n bytes. The slice
// may be shared between answers: it is only read.
func contentLength(n int) []string {
	slot := &contentLengths[n%len(contentLengths)]
	if lv := slot.Load(); lv != nil && lv.n == n {
		return lv.v
	}
	lv := &lengthValue{n: n, v: []string{strconv.Itoa(n)}}
	slot.Store(lv)
	return lv.v
}
