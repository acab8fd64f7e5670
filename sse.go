package graft

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/httpapi"
	"github.com/graftgql/graft/internal/schemadef"
	"github.com/graftgql/graft/internal/transport"
	"github.com/graftgql/graft/internal/transport/httpstream"
)

// Server-Sent Events per the graphql-sse protocol: distinct connections
// mode (one event stream per operation) and single connection mode (one
// reserved event stream carries the results of operations sent by
// separate requests).

// sseTokenHeader carries the reservation token of single connection
// mode; a GET may send it as the token query parameter instead. It is
// kept in canonical form so looking it up on every request allocates
// nothing.
var sseTokenHeader = http.CanonicalHeaderKey("X-GraphQL-Event-Stream-Token")

// sseBuffer bounds the messages waiting for a single-connection stream,
// as SubscriptionConfig.StreamBufferBytes bounds their bytes; a client
// that falls further behind is disconnected.
const sseBuffer = 256

var (
	sseOpen      = []byte(":\n\n")
	sseNext      = []byte("event: next\ndata: ")
	sseEnd       = []byte("\n\n")
	sseComplete  = []byte("event: complete\ndata: \n\n")
	sseKeepAlive = []byte(":\n\n")
)

// isSSESingle reports whether req belongs to graphql-sse's single
// connection mode: a reservation (PUT) when the schema has subscriptions
// (otherwise PUT stays a 405), or a request carrying a reservation token
// (a GET event stream may carry it as the token query parameter).
func (r *Router) isSSESingle(req *http.Request) bool {
	return req.Method == http.MethodPut && schemadef.Model(r.schema).Subscription != nil ||
		req.Header.Get(sseTokenHeader) != "" ||
		req.Method == http.MethodGet && httpstream.AcceptsEventStream(req.Header.Values("Accept")) && req.URL.Query().Has("token")
}

// serveSSE dispatches the graphql-sse requests.
func (r *Router) serveSSE(w http.ResponseWriter, req *http.Request) {
	token := req.Header.Get(sseTokenHeader)
	if token == "" && req.Method == http.MethodGet {
		token = req.URL.Query().Get("token")
	}
	switch {
	case req.Method == http.MethodPut:
		r.sseReserve(w, req)
	case token != "":
		c := r.subs.sseConn(token)
		if c == nil {
			r.refuseHTTP(w, req, &httpapi.Error{Status: http.StatusNotFound,
				Err: gqlerr.New(gqlerr.BadRequest, "No event stream is reserved for this token")})
			return
		}
		switch req.Method {
		case http.MethodGet:
			r.sseStream(w, req, c)
		case http.MethodPost:
			r.sseOperation(w, req, c)
		case http.MethodDelete:
			c.stop(req.URL.Query().Get("operationId"))
			r.answerHTTP(w, req, func(_ context.Context, resp *httpapi.Response) { resp.Status = http.StatusOK })
		default:
			r.refuseHTTP(w, req, &httpapi.Error{Status: http.StatusMethodNotAllowed, Header: http.Header{"Allow": {"GET, POST, DELETE"}},
				Err: gqlerr.New(gqlerr.BadRequest, "Method "+req.Method+" is not allowed with an event-stream token")})
		}
	}
}

// startSSE writes the headers of an event stream, with header (the
// request ID), and its opening comment.
func (r *Router) startSSE(w http.ResponseWriter, header http.Header) *httpStream {
	h := w.Header()
	for k, v := range header {
		h[k] = append(h[k], v...)
	}
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	s := newHTTPStream(w, r.subs.cfg.WriteTimeout)
	_ = s.write(sseOpen)
	return s
}

// sseConn is a single-connection-mode reservation and, once connected,
// its event stream.
type sseConn struct {
	h      *hub
	token  string
	out    chan []byte
	queued atomic.Int64    // bytes in out
	budget int64           // bound of queued
	ctx    context.Context // ends with the stream; operations run in it
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu        sync.Mutex
	connected bool
	ops       map[string]context.CancelCauseFunc
}

func (h *hub) sseConn(token string) *sseConn {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sseConns[token]
}

// sseReserve answers a PUT with a reservation token (201). Auth applies;
// the reservation counts as a connection and lapses unless its stream
// connects within the init timeout.
func (r *Router) sseReserve(w http.ResponseWriter, req *http.Request) {
	r.answerHTTP(w, req, func(ctx context.Context, resp *httpapi.Response) {
		if r.cfg.Auth != nil {
			if _, e := r.admit(ctx, rawView(req)); e != nil {
				r.fail(resp, httpapi.ContentTypeGraphQLResponse, e)
				return
			}
		}
		if !r.subs.AcquireConn() {
			r.fail(resp, httpapi.ContentTypeGraphQLResponse, transport.TooManyConnections())
			return
		}
		c := &sseConn{h: r.subs, token: rand.Text(), out: make(chan []byte, sseBuffer), budget: int64(r.subs.cfg.StreamBufferBytes), ops: map[string]context.CancelCauseFunc{}}
		c.ctx, c.cancel = context.WithCancel(context.WithoutCancel(ctx))
		r.subs.mu.Lock()
		r.subs.sseConns[c.token] = c
		r.subs.mu.Unlock()
		time.AfterFunc(r.subs.cfg.InitTimeout, func() {
			c.mu.Lock()
			connected := c.connected
			c.mu.Unlock()
			if !connected {
				c.end()
			}
		})
		resp.Status, resp.ContentType = http.StatusCreated, "text/plain; charset=utf-8"
		resp.Body = append(resp.Body[:0], c.token...)
	})
}

// end forgets the reservation, stops its operations and releases its
// connection count, once.
func (c *sseConn) end() {
	c.h.mu.Lock()
	if c.h.sseConns[c.token] != c {
		c.h.mu.Unlock()
		return
	}
	delete(c.h.sseConns, c.token)
	c.h.mu.Unlock()
	c.h.ReleaseConn()
	c.cancel()
}

// stop ends operation id, as a DELETE asks.
func (c *sseConn) stop(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if stop := c.ops[id]; stop != nil {
		stop(errClientComplete)
	}
}

// send queues a message for the stream; a stream too slow to keep up, by
// count or by bytes, is disconnected. A message larger than the byte
// budget still goes to a stream with nothing waiting.
func (c *sseConn) send(msg []byte) {
	n := int64(len(msg))
	if q := c.queued.Add(n); q > c.budget && q != n {
		c.queued.Add(-n)
		c.cancel()
		return
	}
	select {
	case c.out <- msg:
	default:
		c.queued.Add(-n)
		c.cancel()
	}
}

// take accounts for msg leaving the queue.
func (c *sseConn) take(msg []byte) []byte {
	c.queued.Add(-int64(len(msg)))
	return msg
}

// sseStream serves the event stream of a reservation.
func (r *Router) sseStream(w http.ResponseWriter, req *http.Request, c *sseConn) {
	c.mu.Lock()
	if c.connected {
		c.mu.Unlock()
		r.refuseHTTP(w, req, &httpapi.Error{Status: http.StatusConflict,
			Err: gqlerr.New(gqlerr.BadRequest, "The event stream of this token is already connected")})
		return
	}
	c.connected = true
	c.mu.Unlock()
	defer c.end()
	// The stream is the answer to this request: it leaves the door when
	// the stream ends.
	st := &requestState{}
	resp := &st.answer
	r.enter(req.Context(), st, rawView(req), resp)
	resp.Status, resp.ContentType = http.StatusOK, "text/event-stream; charset=utf-8"
	defer r.leave(st, resp)
	s := r.startSSE(w, resp.Header)
	var tick <-chan time.Time
	if ka := r.subs.cfg.KeepAlive; ka > 0 {
		t := time.NewTicker(ka)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case msg := <-c.out:
			if s.write(c.take(msg)) != nil {
				return
			}
		case <-tick:
			if s.write(sseKeepAlive) != nil {
				return
			}
		case <-req.Context().Done():
			return
		case <-c.ctx.Done():
			return
		case <-r.subs.Closing():
			c.mu.Lock()
			for _, stop := range c.ops {
				stop(errShutdown)
			}
			c.mu.Unlock()
			c.wg.Wait() // each operation queues its complete
			for {
				select {
				case msg := <-c.out:
					if s.write(c.take(msg)) != nil {
						return
					}
				default:
					return
				}
			}
		}
	}
}

// sseOperation runs an operation whose results go to the reserved stream
// and answers 202; request errors answer this request as over plain HTTP.
func (r *Router) sseOperation(w http.ResponseWriter, req *http.Request, c *sseConn) {
	raw, e := r.rawFromHTTP(req)
	if e != nil {
		r.refuseHTTP(w, req, e)
		return
	}
	var body struct {
		Extensions struct {
			OperationID string `json:"operationId"`
		} `json:"extensions"`
	}
	_ = json.Unmarshal(raw.Body, &body)
	id := body.Extensions.OperationID
	if id == "" {
		r.refuseHTTP(w, req, &httpapi.Error{Status: http.StatusBadRequest,
			Err: gqlerr.New(gqlerr.BadRequest, "Operations on an event-stream token need extensions.operationId")})
		return
	}
	// The token was obtained with a PUT, which no page can send cross-site
	// without a preflight: it counts as a preflight header.
	if r.cfg.CSRF != nil {
		header, preflight := raw.Header, strings.ToLower(r.cfg.CSRF.RequiredHeaders[0])
		raw.Header = func(name string) string {
			if strings.ToLower(name) == preflight {
				return c.token
			}
			return header(name)
		}
	}
	c.mu.Lock()
	select {
	case <-r.subs.Closing():
		c.mu.Unlock()
		r.refuseHTTP(w, req, &httpapi.Error{Status: http.StatusServiceUnavailable,
			Err: gqlerr.New(gqlerr.ShuttingDown, "The server is shutting down")})
		return
	default:
	}
	if c.ops[id] != nil {
		c.mu.Unlock()
		r.refuseHTTP(w, req, &httpapi.Error{Status: http.StatusConflict,
			Err: gqlerr.New(gqlerr.BadRequest, "Operation "+id+" is already running on this stream")})
		return
	}
	if len(c.ops) >= r.subs.cfg.MaxSubscriptionsPerConnection || !r.subs.AcquireSub() {
		c.mu.Unlock()
		r.refuseHTTP(w, req, transport.TooManySubscriptions())
		return
	}
	ctx, stop := context.WithCancelCause(c.ctx)
	c.ops[id] = stop
	c.mu.Unlock()
	release := func() {
		c.mu.Lock()
		delete(c.ops, id)
		c.mu.Unlock()
		stop(nil)
		r.subs.ReleaseSub()
	}
	// The operation runs in the stream's context, which outlives this
	// request; Auth still sees this request's headers.
	op := r.startRaw(ctx, raw)
	idJSON, _ := json.Marshal(id)
	if id := op.resp.Header.Get(RequestIDHeader); id != "" {
		w.Header().Set(RequestIDHeader, id)
	}
	if op.stream == nil {
		release()
		if op.resp.Status != http.StatusOK {
			writeResponse(w, &op.resp)
			return
		}
		c.send(sseMessage(sseNext, idJSON, op.resp.Body))
		c.send(sseMessage(sseCompleteHead, idJSON, nil))
		w.WriteHeader(http.StatusAccepted)
		return
	}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer release()
		err := r.pump(op, func(body []byte) error {
			c.send(sseMessage(sseNext, idJSON, body))
			return nil
		})
		if cause := context.Cause(ctx); err == nil && cause == nil || cause == errShutdown {
			c.send(sseMessage(sseCompleteHead, idJSON, nil))
		}
	}()
	w.WriteHeader(http.StatusAccepted)
}

var sseCompleteHead = []byte("event: complete\ndata: ")

// sseMessage builds a single-connection event: head, then
// {"id":id,"payload":payload} (payload left out when nil).
func sseMessage(head, id, payload []byte) []byte {
	b := make([]byte, 0, len(head)+len(id)+len(payload)+32)
	b = append(b, head...)
	b = append(b, `{"id":`...)
	b = append(b, id...)
	if payload != nil {
		b = append(b, `,"payload":`...)
		b = append(b, payload...)
	}
	return append(b, "}\n\n"...)
}
