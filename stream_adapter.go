package graft

import (
	"context"
	"net/http"
	"strings"
	"sync"

	"github.com/graftgql/graft/internal/dispatch"
	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/httpapi"
)

func init() {
	dispatch.Stream = func(ctx context.Context, router any, raw *httpapi.RawRequest, resp *httpapi.Response) (func(func(...[]byte) error), bool) {
		return router.(*Router).streamRaw(ctx, raw, resp)
	}
}

// streamRaw is the streaming transports for adapters that have no
// net/http ResponseWriter (see dispatch.Stream): SSE in distinct
// connections mode and multipart subscriptions, with the behaviour of
// sseDistinct and serveMultipart. Single connection SSE needs requests
// that share a stream, and WebSocket a hijacked connection: they are
// served by the net/http router only.
func (r *Router) streamRaw(ctx context.Context, raw *httpapi.RawRequest, resp *httpapi.Response) (func(func(...[]byte) error), bool) {
	if raw.Method == http.MethodGet && strings.EqualFold(raw.Header("Upgrade"), "websocket") {
		*resp = *r.refuse(ctx, raw, httpapi.ContentTypeGraphQLResponse, &httpapi.Error{Status: http.StatusBadRequest,
			Err: gqlerr.New(gqlerr.OperationUnsupported, "WebSocket is served by the net/http router only: use Server-Sent Events or multipart subscriptions here")})
		return nil, true
	}
	accept := []string{raw.Accept}
	sse := acceptsEventStream(accept)
	if !sse && !acceptsMultipart(accept) {
		return nil, false
	}
	if !r.subs.acquireConn() {
		*resp = *r.refuse(ctx, raw, httpapi.ContentTypeGraphQLResponse, tooManyConnections())
		return nil, true
	}
	sctx, cancel := context.WithCancelCause(ctx)
	var once sync.Once
	stop := func(cause error) {
		cancel(cause)
		once.Do(r.subs.releaseConn)
	}
	op := r.startRaw(sctx, raw)
	if op.stream == nil {
		if sse && (op.resp.Status == http.StatusOK || op.resp.Status == http.StatusBadRequest) {
			// Request errors, and queries, are a next event.
			body := append([]byte(nil), op.resp.Body...)
			sseHeaders(resp, op.resp.Header)
			return func(write func(...[]byte) error) {
				defer stop(nil)
				_ = write(sseOpen, sseNext, body, sseEnd, sseComplete)
			}, true
		}
		*resp = op.resp
		stop(nil)
		return nil, true
	}
	if !r.subs.acquireSub() {
		stop(nil)
		op.abandon(tooManySubscriptions())
		*resp = op.resp
		return nil, true
	}
	if sse {
		sseHeaders(resp, op.resp.Header)
		return func(write func(...[]byte) error) {
			write = serialised(write)
			defer stop(nil)
			defer r.subs.releaseSub()
			if write(sseOpen) != nil {
				return
			}
			if r.streamEvents(op, stop,
				func(body []byte) error { return write(sseNext, body, sseEnd) },
				func() error { return write(sseKeepAlive) }) {
				_ = write(sseComplete)
			}
		}, true
	}
	*resp = httpapi.Response{Status: http.StatusOK, ContentType: multipartType, Header: op.resp.Header}
	resp.SetHeader("Cache-Control", "no-cache")
	return func(write func(...[]byte) error) {
		write = serialised(write)
		defer stop(nil)
		defer r.subs.releaseSub()
		if write(mpFirst) != nil {
			return
		}
		wrap := []byte(`{"payload":`)
		if r.streamEvents(op, stop,
			func(body []byte) error { return write(mpPartHead, wrap, body, []byte("}"), mpPartClose) },
			func() error { return write(mpPartHead, mpHeartbeat, mpPartClose) }) {
			_ = write(mpEnd)
		}
	}, true
}

// sseHeaders sets the status and headers of an event stream, beside the
// pipeline's (CORS, for example).
func sseHeaders(resp *httpapi.Response, header http.Header) {
	*resp = httpapi.Response{Status: http.StatusOK, ContentType: "text/event-stream; charset=utf-8", Header: header}
	resp.SetHeader("Cache-Control", "no-cache")
	resp.SetHeader("X-Accel-Buffering", "no")
}

// serialised makes write safe for the event and keep-alive goroutines of
// a stream; after a failure it fails at once.
func serialised(write func(...[]byte) error) func(...[]byte) error {
	var mu sync.Mutex
	var failed error
	return func(chunks ...[]byte) error {
		mu.Lock()
		defer mu.Unlock()
		if failed == nil {
			failed = write(chunks...)
		}
		return failed
	}
}
