// Package sse is graphql-sse's single connection mode: a client reserves
// an event stream (PUT, answered with a token), connects it (GET with the
// token), and sends operations on the token (POST with
// extensions.operationId, answered 202), whose results reach the stream as
// events tagged with the operation's id; DELETE ends one. The distinct
// connections mode, one stream per operation, is package httpstream's.
//
// Every request passes the pipeline's door; reservations are bounded by
// the transport (in all and per client address), connected streams count
// as connections of the router's transport.Hub, operations as its
// subscriptions, and the hub tells streams of shutdown.
package sse

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/httpapi"
	"github.com/graftgql/graft/internal/transport"
	"github.com/graftgql/graft/internal/transport/httpstream"
)

// TokenHeader carries the reservation token; a GET may send it as the
// token query parameter instead. It is kept in canonical form so looking
// it up on every request allocates nothing.
var TokenHeader = http.CanonicalHeaderKey("X-GraphQL-Event-Stream-Token")

// requestIDHeader is graft.RequestIDHeader.
const requestIDHeader = "X-Request-ID"

// sseBuffer bounds the messages waiting for a stream, as
// Config.StreamBufferBytes bounds their bytes; a client that falls further
// behind is disconnected.
const sseBuffer = 256

var (
	sseOpen      = []byte(":\n\n")
	sseNext      = []byte("event: next\ndata: ")
	sseKeepAlive = []byte(":\n\n")
)

// Why an operation's context was cancelled.
var (
	errClientComplete = transport.ErrClientComplete
	errShutdown       = transport.ErrShutdown
)

// Config configures the transport; the router fills it from
// graft.SubscriptionConfig with every default applied.
type Config struct {
	// KeepAlive is the interval of keep-alive comments (none when not
	// positive); InitTimeout bounds the wait for a reservation's stream
	// to connect; WriteTimeout bounds one write.
	KeepAlive, InitTimeout, WriteTimeout time.Duration
	// StreamBufferBytes bounds the bytes waiting for one stream.
	StreamBufferBytes int
	// MaxSubscriptionsPerConnection bounds the operations of one stream.
	MaxSubscriptionsPerConnection int
	// PreflightHeader is the header CSRF prevention accepts as a
	// preflight ("" when it is off): the token, obtained with a PUT no
	// page can send cross-site without a preflight, counts as one.
	PreflightHeader string
	// Reservations turns on reservations (PUT); the router sets it when
	// the schema has subscriptions, so that PUT stays a 405 otherwise.
	Reservations bool
	// MaxReservations bounds the reservations not yet connected, and
	// MaxReservationsPerAddress those of one client address.
	MaxReservations, MaxReservationsPerAddress int
}

// Pipeline is what the transport needs of the router.
type Pipeline interface {
	transport.Pipeline
	// Open admits req through the door as the request an answer that is
	// not an operation (a reservation, an event stream, a DELETE) is
	// written for: ctx carries its state, resp is where its status and
	// headers (the request ID) go, and done closes it once the answer is
	// complete, for the hooks and the access log.
	Open(req *http.Request) (ctx context.Context, resp *httpapi.Response, done func())
	// Authorize runs Config.Auth for a request opened with Open (nil when
	// there is no Auth or it accepts).
	Authorize(ctx context.Context, req *http.Request) *httpapi.Error
	// Fail makes resp the answer to e, keeping the headers already set.
	Fail(resp *httpapi.Response, e *httpapi.Error)
	// Read returns the pipeline's view of req with its body read within
	// the size limit, or the refusal.
	Read(req *http.Request) (*httpapi.RawRequest, *httpapi.Error)
	// Hold reserves msg, an event about to be queued for a stream, in the
	// router's buffered-bytes budget, and reports false when the budget
	// cannot hold it; Release gives held bytes back once written or
	// dropped. Busy is the payload sent in place of one refused.
	Hold(msg []byte) bool
	Release(n int)
	Busy() []byte
}

// Server is the transport of one router.
type Server struct {
	cfg   Config
	p     Pipeline
	hub   *transport.Hub
	mu    sync.Mutex
	conns map[string]*sseConn // by token
	// reserved counts the reservations not yet connected, in all and by
	// client address.
	reserved       int
	reservedByAddr map[string]int
}

// New returns the transport, reporting to hub.
func New(cfg Config, p Pipeline, hub *transport.Hub) *Server {
	return &Server{cfg: cfg, p: p, hub: hub, conns: map[string]*sseConn{}, reservedByAddr: map[string]int{}}
}

// Match reports whether req belongs to the single connection mode: a
// reservation (PUT, when Reservations is on), or a request carrying a
// token (a GET event stream may carry it as the token query parameter).
func (srv *Server) Match(req *http.Request) bool {
	return req.Method == http.MethodPut && srv.cfg.Reservations ||
		req.Header.Get(TokenHeader) != "" ||
		req.Method == http.MethodGet && httpstream.AcceptsEventStream(req.Header.Values("Accept")) && req.URL.Query().Has("token")
}

// ServeHTTP serves a request Match accepted.
func (srv *Server) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	token := req.Header.Get(TokenHeader)
	if token == "" && req.Method == http.MethodGet {
		token = req.URL.Query().Get("token")
	}
	if req.Method == http.MethodPut {
		if !srv.cfg.Reservations {
			// No subscriptions: a token does not make PUT a reservation.
			srv.refuse(w, req, &httpapi.Error{Status: http.StatusMethodNotAllowed, Header: http.Header{"Allow": {"GET, POST"}},
				Err: gqlerr.New(gqlerr.BadRequest, "Method PUT is not allowed: use GET or POST")})
			return
		}
		srv.reserve(w, req)
		return
	}
	srv.mu.Lock()
	c := srv.conns[token]
	srv.mu.Unlock()
	if c == nil {
		srv.refuse(w, req, &httpapi.Error{Status: http.StatusNotFound,
			Err: gqlerr.New(gqlerr.BadRequest, "No event stream is reserved for this token")})
		return
	}
	switch req.Method {
	case http.MethodGet:
		srv.stream(w, req, c)
	case http.MethodPost:
		srv.operation(w, req, c)
	case http.MethodDelete:
		c.stop(req.URL.Query().Get("operationId"))
		_, resp, done := srv.p.Open(req)
		resp.Status = http.StatusOK
		done()
		transport.WriteHTTP(w, resp)
	default:
		srv.refuse(w, req, &httpapi.Error{Status: http.StatusMethodNotAllowed, Header: http.Header{"Allow": {"GET, POST, DELETE"}},
			Err: gqlerr.New(gqlerr.BadRequest, "Method "+req.Method+" is not allowed with an event-stream token")})
	}
}

// refuse answers req with e through the door.
func (srv *Server) refuse(w http.ResponseWriter, req *http.Request, e *httpapi.Error) {
	raw := &httpapi.RawRequest{Method: req.Method, Path: req.URL.Path, RawQuery: req.URL.RawQuery,
		Header: req.Header.Get, Remote: req.RemoteAddr}
	transport.WriteHTTP(w, srv.p.Refuse(req.Context(), raw, e))
}

// reserve answers a PUT with a reservation token (201). Auth applies;
// the reservation counts toward the reservations' bounds (not the
// connections') and lapses unless its stream connects within the init
// timeout.
func (srv *Server) reserve(w http.ResponseWriter, req *http.Request) {
	ctx, resp, done := srv.p.Open(req)
	defer func() {
		done()
		transport.WriteHTTP(w, resp)
	}()
	if e := srv.p.Authorize(ctx, req); e != nil {
		srv.p.Fail(resp, e)
		return
	}
	addr := req.RemoteAddr
	if host, _, err := net.SplitHostPort(addr); err == nil {
		addr = host
	}
	if !srv.reserveAddr(addr) {
		retry := strconv.Itoa(int((srv.cfg.InitTimeout + time.Second - 1) / time.Second))
		srv.p.Fail(resp, &httpapi.Error{Status: http.StatusServiceUnavailable, Header: http.Header{"Retry-After": {retry}},
			Err: gqlerr.New(gqlerr.TooManyConnections, "Too many event streams reserved and not connected: try again later")})
		return
	}
	c := &sseConn{s: srv, addr: addr, token: rand.Text(), out: make(chan sseItem, sseBuffer), budget: int64(srv.cfg.StreamBufferBytes), ops: map[string]context.CancelCauseFunc{}}
	c.ctx, c.cancel = context.WithCancel(context.WithoutCancel(ctx))
	srv.mu.Lock()
	srv.conns[c.token] = c
	srv.mu.Unlock()
	time.AfterFunc(srv.cfg.InitTimeout, func() {
		c.mu.Lock()
		connected := c.connected
		c.mu.Unlock()
		if !connected {
			c.end()
		}
	})
	resp.Status, resp.ContentType = http.StatusCreated, "text/plain; charset=utf-8"
	resp.Body = append(resp.Body[:0], c.token...)
}

// reserveAddr counts a reservation of the client at addr, or reports
// false when the reservations, in all or of that address, are at their
// bound or the server is shutting down. A reservation holds no socket: it
// takes no connection slot until its stream connects.
func (srv *Server) reserveAddr(addr string) bool {
	select {
	case <-srv.hub.Closing():
		return false
	default:
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if srv.reserved >= srv.cfg.MaxReservations || srv.reservedByAddr[addr] >= srv.cfg.MaxReservationsPerAddress {
		return false
	}
	srv.reserved++
	srv.reservedByAddr[addr]++
	return true
}

// unreserve forgets a reservation of addr; srv.mu is held.
func (srv *Server) unreserve(addr string) {
	srv.reserved--
	if n := srv.reservedByAddr[addr] - 1; n > 0 {
		srv.reservedByAddr[addr] = n
	} else {
		delete(srv.reservedByAddr, addr)
	}
}

// connect turns c's reservation into a connection, or reports false
// when the connections are at their bound or c was forgotten.
func (srv *Server) connect(c *sseConn) bool {
	if !srv.hub.AcquireConn() {
		return false
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if srv.conns[c.token] != c {
		srv.hub.ReleaseConn()
		return false
	}
	srv.unreserve(c.addr)
	c.counted = true
	return true
}

// writer is a stream's Writer.
type writer struct{ *httpstream.Writer }

// sseConn is a single-connection-mode reservation and, once connected,
// its event stream.
type sseConn struct {
	s      *Server
	token  string
	out    chan sseItem
	queued atomic.Int64    // bytes in out
	budget int64           // bound of queued
	ctx    context.Context // ends with the stream; operations run in it
	cancel context.CancelFunc
	wg     sync.WaitGroup

	// addr is the client address that reserved the stream; counted says
	// the stream connected and counts as a connection rather than a
	// reservation. Both are guarded by the server's mu.
	addr    string
	counted bool

	mu        sync.Mutex
	connected bool
	closed    bool // out takes no more messages
	ops       map[string]context.CancelCauseFunc
}

// sseItem is a message queued for a stream; held says its bytes are held
// in the router's budget.
type sseItem struct {
	msg  []byte
	held bool
}

// end forgets the reservation, stops its operations and releases its
// connection count, once.
func (c *sseConn) end() {
	c.s.mu.Lock()
	if c.s.conns[c.token] != c {
		c.s.mu.Unlock()
		return
	}
	delete(c.s.conns, c.token)
	counted := c.counted
	if !counted {
		c.s.unreserve(c.addr)
	}
	c.s.mu.Unlock()
	if counted {
		c.s.hub.ReleaseConn()
	}
	c.cancel()
	// What waits for the stream is let go.
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	for {
		select {
		case it := <-c.out:
			c.take(it)
		default:
			return
		}
	}
}

// stop ends operation id, as a DELETE asks.
func (c *sseConn) stop(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if stop := c.ops[id]; stop != nil {
		stop(errClientComplete)
	}
}

// sendNext queues a next event of operation id: its bytes are held in
// the router's budget until written, and the SERVER_BUSY answer goes in
// its place when the budget cannot hold them.
func (c *sseConn) sendNext(id, payload []byte) {
	msg := sseMessage(sseNext, id, payload)
	held := c.s.p.Hold(msg)
	if !held {
		msg = sseMessage(sseNext, id, c.s.p.Busy())
	}
	c.send(sseItem{msg: msg, held: held})
}

// send queues a message for the stream; a stream too slow to keep up, by
// count or by bytes, is disconnected. A message larger than the byte
// budget still goes to a stream with nothing waiting.
func (c *sseConn) send(it sseItem) {
	n := int64(len(it.msg))
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		c.drop(it)
		return
	}
	if q := c.queued.Add(n); q > c.budget && q != n {
		c.queued.Add(-n)
		c.drop(it)
		c.cancel()
		return
	}
	select {
	case c.out <- it:
	default:
		c.queued.Add(-n)
		c.drop(it)
		c.cancel()
	}
}

// drop lets go of a message that is not sent.
func (c *sseConn) drop(it sseItem) {
	if it.held {
		c.s.p.Release(len(it.msg))
	}
}

// take accounts for a message that left the queue, once written or
// dropped.
func (c *sseConn) take(it sseItem) {
	c.queued.Add(-int64(len(it.msg)))
	c.drop(it)
}

// sseStream serves the event stream of a reservation.
func (srv *Server) stream(w http.ResponseWriter, req *http.Request, c *sseConn) {
	if req.ContentLength != 0 {
		// An event stream is asked for with no body (an EventSource
		// sends none). One left unread would keep net/http from
		// noticing the client leave, and the stream would outlive it.
		srv.refuse(w, req, &httpapi.Error{Status: http.StatusBadRequest,
			Err: gqlerr.New(gqlerr.BadRequest, "An event stream request has no body")})
		return
	}
	c.mu.Lock()
	if c.connected {
		c.mu.Unlock()
		srv.refuse(w, req, &httpapi.Error{Status: http.StatusConflict,
			Err: gqlerr.New(gqlerr.BadRequest, "The event stream of this token is already connected")})
		return
	}
	// The stream now holds a socket: it takes a connection's place and
	// gives back its reservation's.
	if !srv.connect(c) {
		c.mu.Unlock()
		srv.refuse(w, req, transport.TooManyConnections())
		return
	}
	c.connected = true
	c.mu.Unlock()
	defer c.end()
	// The stream is the answer to this request: it leaves the door when
	// the stream ends.
	_, resp, done := srv.p.Open(req)
	defer done()
	resp.Status, resp.ContentType = http.StatusOK, "text/event-stream; charset=utf-8"
	resp.SetHeader("Cache-Control", "no-cache")
	resp.SetHeader("X-Accel-Buffering", "no")
	httpstream.WriteHead(w, resp)
	out := httpstream.NewWriter(w, srv.cfg.WriteTimeout)
	_ = out.Write(sseOpen)
	s := writer{out}
	var tick <-chan time.Time
	if ka := srv.cfg.KeepAlive; ka > 0 {
		t := time.NewTicker(ka)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case it := <-c.out:
			err := s.Write(it.msg)
			c.take(it)
			if err != nil {
				return
			}
		case <-tick:
			if s.Write(sseKeepAlive) != nil {
				return
			}
		case <-req.Context().Done():
			return
		case <-c.ctx.Done():
			return
		case <-srv.hub.Closing():
			c.mu.Lock()
			for _, stop := range c.ops {
				stop(errShutdown)
			}
			c.mu.Unlock()
			c.wg.Wait() // each operation queues its complete
			for {
				select {
				case it := <-c.out:
					err := s.Write(it.msg)
					c.take(it)
					if err != nil {
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
func (srv *Server) operation(w http.ResponseWriter, req *http.Request, c *sseConn) {
	raw, e := srv.p.Read(req)
	if e != nil {
		srv.refuse(w, req, e)
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
		srv.refuse(w, req, &httpapi.Error{Status: http.StatusBadRequest,
			Err: gqlerr.New(gqlerr.BadRequest, "Operations on an event-stream token need extensions.operationId")})
		return
	}
	// The token was obtained with a PUT, which no page can send cross-site
	// without a preflight: it counts as a preflight header.
	if srv.cfg.PreflightHeader != "" {
		header, preflight := raw.Header, strings.ToLower(srv.cfg.PreflightHeader)
		raw.Header = func(name string) string {
			if strings.ToLower(name) == preflight {
				return c.token
			}
			return header(name)
		}
	}
	c.mu.Lock()
	select {
	case <-srv.hub.Closing():
		c.mu.Unlock()
		srv.refuse(w, req, &httpapi.Error{Status: http.StatusServiceUnavailable,
			Err: gqlerr.New(gqlerr.ShuttingDown, "The server is shutting down")})
		return
	default:
	}
	if c.ops[id] != nil {
		c.mu.Unlock()
		srv.refuse(w, req, &httpapi.Error{Status: http.StatusConflict,
			Err: gqlerr.New(gqlerr.BadRequest, "Operation "+id+" is already running on this stream")})
		return
	}
	if len(c.ops) >= srv.cfg.MaxSubscriptionsPerConnection || !srv.hub.AcquireSub() {
		c.mu.Unlock()
		srv.refuse(w, req, transport.TooManySubscriptions())
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
		srv.hub.ReleaseSub()
	}
	// The operation runs in the stream's context, which outlives this
	// request; Auth still sees this request's headers.
	op := srv.p.Start(ctx, raw)
	idJSON, _ := json.Marshal(id)
	if id := op.Response().Header.Get(requestIDHeader); id != "" {
		w.Header().Set(requestIDHeader, id)
	}
	if !op.Streaming() {
		release()
		if op.Response().Status != http.StatusOK {
			transport.WriteHTTP(w, op.Response())
			return
		}
		c.sendNext(idJSON, op.Response().Body)
		c.send(sseItem{msg: sseMessage(sseCompleteHead, idJSON, nil)})
		w.WriteHeader(http.StatusAccepted)
		return
	}
	c.wg.Add(1)
	d := &sseDelivery{c: c, op: op, id: idJSON, ctx: ctx, release: release}
	d.send = d.next
	if !op.Watch(d) {
		// A source that waits on a goroutine of its own (or incremental
		// delivery) is pumped.
		go func() {
			defer c.wg.Done()
			defer release()
			err := op.Pump(func(body []byte) error {
				c.sendNext(idJSON, body)
				return nil
			})
			if cause := context.Cause(ctx); err == nil && cause == nil || cause == errShutdown {
				c.send(sseItem{msg: sseMessage(sseCompleteHead, idJSON, nil)})
			}
		}()
	}
	w.WriteHeader(http.StatusAccepted)
}

// sseDelivery is an operation of a stream whose source pushes its
// events: they are queued for the stream from the hub's workers as they
// come (queueing never waits), with no goroutine while it is idle.
type sseDelivery struct {
	c       *sseConn
	op      transport.Operation
	id      []byte
	ctx     context.Context
	release func()
	send    func([]byte) error // next, made once

	rounds transport.Rounds
	done   bool
}

// Notify is the operation's notice of news; it must not block.
func (d *sseDelivery) Notify() { d.rounds.Schedule(d.c.s.hub, d) }

// Run queues the events waiting (transport.Task) and, once the stream
// has ended, its complete.
func (d *sseDelivery) Run() {
	for {
		if !d.done && d.op.Drain(d.send) {
			d.done = true
			if cause := context.Cause(d.ctx); cause == nil || cause == errShutdown {
				d.c.send(sseItem{msg: sseMessage(sseCompleteHead, d.id, nil)})
			}
			d.release()
			d.c.wg.Done()
		}
		if !d.rounds.Again() {
			return
		}
	}
}

func (d *sseDelivery) next(body []byte) error {
	d.c.sendNext(d.id, body)
	return nil
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
