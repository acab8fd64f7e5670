package graft

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/graftgql/graft/internal/dispatch"
	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/httpapi"
	"github.com/graftgql/graft/internal/transport"
	"github.com/graftgql/graft/internal/transport/httpstream"
)

func init() {
	dispatch.Stream = func(ctx context.Context, router any, raw *httpapi.RawRequest, resp *httpapi.Response) (func(func(...[]byte) error), bool) {
		return router.(*Router).streamRaw(ctx, raw, resp)
	}
}

// The streaming transports are units under internal/transport (ws, sse,
// httpstream), each behind a small interface; the router registers them
// (NewRouter builds them, serveStream dispatches to them) and is their
// pipeline through this adapter.

// pipeline is the router as its streaming transports see it
// (transport.Pipeline and the transports' own Pipeline interfaces): every
// operation and refusal passes the door. format is the incremental
// delivery format of the transport (0: @defer and @stream are answered
// as if absent; incremental.go).
type pipeline struct {
	r      *Router
	format exec.Format
}

func (p pipeline) Start(ctx context.Context, raw *httpapi.RawRequest) transport.Operation {
	return p.r.startRaw(ctx, raw, p.format)
}

// ssePipeline is the pipeline of single-connection SSE, whose operations
// are delivered incrementally in the format their Accept header names.
type ssePipeline struct{ pipeline }

func (p ssePipeline) Start(ctx context.Context, raw *httpapi.RawRequest) transport.Operation {
	format := sseFormat([]string{raw.Accept})
	raw.Accept = httpapi.MediaGraphQLResponse // the answers travel in the stream
	return p.r.startRaw(ctx, raw, format)
}

func (p pipeline) Refuse(ctx context.Context, raw *httpapi.RawRequest, e *httpapi.Error) *httpapi.Response {
	return p.r.refuse(ctx, raw, httpapi.ContentTypeGraphQLResponse, e)
}

// Admit runs a WebSocket upgrade through Config.Auth, passing the door only when Auth may refuse it.
func (p pipeline) Admit(req *http.Request) (context.Context, *httpapi.Response) {
	r := p.r
	if r.cfg.Auth == nil {
		// Nothing to refuse: the connection keeps no request state of
		// its own (each operation passes the door with its own), which
		// an idle subscriber would otherwise hold for its lifetime.
		return req.Context(), nil
	}
	raw := rawView(req)
	st := &requestState{}
	resp := &st.answer
	ctx := r.enter(req.Context(), st, raw, resp)
	actx, e := r.admit(ctx, raw)
	if e != nil {
		r.fail(resp, httpapi.ContentTypeGraphQLResponse, e)
		r.leave(st, resp)
		return nil, resp
	}
	return actx, nil
}

// Open admits req through the door for an answer the pipeline does not
// run (single-connection SSE: a reservation, a stream, a DELETE).
func (p pipeline) Open(req *http.Request) (context.Context, *httpapi.Response, func()) {
	st := &requestState{}
	resp := &st.answer
	ctx := p.r.enter(req.Context(), st, rawView(req), resp)
	return ctx, resp, func() { p.r.leave(st, resp) }
}

// Authorize runs Config.Auth for a request opened with Open.
func (p pipeline) Authorize(ctx context.Context, req *http.Request) *httpapi.Error {
	if p.r.cfg.Auth == nil {
		return nil
	}
	_, e := p.r.admit(ctx, rawView(req))
	return e
}

// Fail makes resp the answer to e.
func (p pipeline) Fail(resp *httpapi.Response, e *httpapi.Error) {
	p.r.fail(resp, httpapi.ContentTypeGraphQLResponse, e)
}

// Read reads req's body within MaxBodyBytes.
func (p pipeline) Read(req *http.Request) (*httpapi.RawRequest, *httpapi.Error) {
	return p.r.rawFromHTTP(req)
}

// Enter counts a WebSocket operation toward MaxInFlight, as over HTTP.
func (p pipeline) Enter() *gqlerror.Error {
	if !p.r.load.enter() {
		return gqlerr.New(gqlerr.ServerBusy, msgTooManyInFlight)
	}
	return nil
}

// Leave ends what Enter counted.
func (p pipeline) Leave() { p.r.load.leave() }

// Hold reserves a WebSocket payload in MaxBufferedBytes and in its
// connection's share (streambounds.go) and returns the bytes held, with
// no allocation.
func (p pipeline) Hold(conn *atomic.Int64, body []byte) ([]byte, int) {
	send, hold := p.r.holdFor(conn, body)
	return send, hold.n
}

// Release gives back the bytes Hold held for conn.
func (p pipeline) Release(conn *atomic.Int64, held int) {
	if held > 0 {
		streamHold{l: &p.r.load, conn: conn, n: held}.release()
	}
}

// Hold reserves an event of a single-connection stream in
// MaxBufferedBytes.
func (p ssePipeline) Hold(msg []byte) bool { return p.r.load.holdStream(len(msg)) }

// Release gives back what Hold reserved.
func (p ssePipeline) Release(n int) { p.r.load.releaseStream(n) }

// Busy is the SERVER_BUSY answer sent in place of an event refused.
func (p ssePipeline) Busy() []byte { return busyAnswer }

// Run runs an operation of a WebSocket connection.
func (p pipeline) Run(ctx context.Context, req *httpapi.Request, raw *httpapi.RawRequest) transport.Operation {
	return p.r.start(ctx, req, raw)
}

// streamRaw serves the streamed HTTP transports (package httpstream: SSE
// in distinct connections mode, multipart subscriptions) for any host, the
// adapters' through dispatch.Stream and net/http's through
// serveHTTPStream. Single connection SSE needs requests that share a
// stream, and WebSocket a hijacked connection: they are served by the
// net/http router only, and a WebSocket upgrade is refused here.
func (r *Router) streamRaw(ctx context.Context, raw *httpapi.RawRequest, resp *httpapi.Response) (func(func(...[]byte) error), bool) {
	if raw.Method == http.MethodGet && strings.EqualFold(raw.Header("Upgrade"), "websocket") {
		*resp = *r.refuse(ctx, raw, httpapi.ContentTypeGraphQLResponse, &httpapi.Error{Status: http.StatusBadRequest,
			Err: gqlerr.New(gqlerr.OperationUnsupported, "WebSocket is served by the net/http router only: use Server-Sent Events or multipart subscriptions here")})
		return nil, true
	}
	f := httpstream.Match([]string{raw.Accept})
	if f == nil {
		return nil, false
	}
	p := pipeline{r, formatFor(f, []string{raw.Accept})}
	return httpstream.Serve(ctx, p, r.subs.Hub, r.subs.cfg.KeepAlive, f, raw, resp), true
}

// httpStreams is the streamed HTTP answers (package httpstream) as a
// unit of the net/http router.
type httpStreams struct{ r *Router }

// Match reports whether req asks for an event stream or a multipart
// subscription.
func (u httpStreams) Match(req *http.Request) bool {
	return httpstream.Match(req.Header.Values("Accept")) != nil
}

// ServeHTTP serves it.
func (u httpStreams) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	u.r.serveHTTPStream(w, req, httpstream.Match(req.Header.Values("Accept")))
}

// serveHTTPStream serves a streamed HTTP transport over net/http, each
// write within the write timeout and flushed at once.
func (r *Router) serveHTTPStream(w http.ResponseWriter, req *http.Request, f *httpstream.Format) {
	raw, e := r.rawFromHTTP(req)
	if e != nil {
		r.refuseHTTP(w, req, e)
		return
	}
	// A stream may last: its operation keeps the request's headers as
	// lines rather than as the request's map.
	raw.Header = httpapi.NewHeaderLines(req.Header, nil).Get
	var resp httpapi.Response
	p := pipeline{r, formatFor(f, req.Header.Values("Accept"))}
	// An HTTP/1 stream is taken over from net/http once it streams: an
	// idle one then holds no goroutine or buffer of the server's.
	body, detached := httpstream.ServeDetachable(req.Context(), p, r.subs.Hub, r.subs.cfg.KeepAlive, f, raw, &resp,
		func(resp *httpapi.Response) httpstream.Detached {
			return httpstream.Detach(w, req, resp, r.subs.cfg.WriteTimeout)
		})
	if detached {
		return
	}
	if body == nil {
		r.writeStreamResponse(w, &resp)
		return
	}
	httpstream.WriteHead(w, &resp)
	body(httpstream.NewWriter(w, r.subs.cfg.WriteTimeout).Write)
}
