// Package ws is graft's WebSocket transport: the graphql-transport-ws
// protocol of the graphql-ws library, for subscriptions, queries and
// mutations. A Server matches upgrade requests, serves each connection on
// goroutines of its own, starts every operation through the pipeline's
// door (Pipeline.Run) and counts its connections and subscriptions in the
// router's transport.Hub, which tells it of shutdown.
package ws

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/httpapi"
	"github.com/graftgql/graft/internal/transport"
	"github.com/graftgql/graft/internal/transport/poll"
)

// wsProtocol is the WebSocket subprotocol of the graphql-ws library.
const wsProtocol = "graphql-transport-ws"

// Close codes of the graphql-transport-ws protocol.
const (
	wsBadRequest          websocket.StatusCode = 4400
	wsUnauthorized        websocket.StatusCode = 4401
	wsForbidden           websocket.StatusCode = 4403
	wsSubprotocol         websocket.StatusCode = 4406
	wsInitTimeout         websocket.StatusCode = 4408
	wsSubscriberExists    websocket.StatusCode = 4409
	wsTooManyInitRequests websocket.StatusCode = 4429
)

// Why a subscription's context was cancelled.
var (
	errClientComplete = transport.ErrClientComplete
	errShutdown       = transport.ErrShutdown
	errNotStream      = transport.ErrClientGone
)

// errorsBody returns the response body {"errors":[e]}.
func errorsBody(e *gqlerror.Error) []byte {
	return gqlerr.AppendResponse(nil, gqlerror.List{e}, nil)
}

// wsMessage is a graphql-transport-ws message.
type wsMessage struct {
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// wsConn is one graphql-transport-ws connection.
type wsConn struct {
	s   *Server
	c   *websocket.Conn
	ctx context.Context // the connection's: Auth's and OnConnect's values
	// raw is the upgrade request as each operation enters the pipeline
	// with it: method, path, headers and client address.
	raw    httpapi.RawRequest
	acked  atomic.Bool
	ended  atomic.Bool // the reader stopped: nothing more is sent
	wg     sync.WaitGroup
	inited bool // connection_init was received; used by the reader only

	// Tickets of the connection's deadlines in the hub's clocks.
	initTicket, pingTicket atomic.Uint64

	// An idle connection has no goroutine: idle, when the socket allows
	// it, wakes the reader when input arrives (see resume). Otherwise the
	// reader, when the socket allows it, waits for input on a goroutine
	// of its own with a fresh, small stack (see wait). br and src hold
	// the input not yet handled, ready waits for more.
	idle  *poll.Handle
	br    *bufio.Reader
	src   *wsSource
	ready func() error
	// rmu orders a close handshake from another goroutine (which reads
	// br) with the reader's look at br and src between messages.
	rmu sync.Mutex
	// wmu makes writes one at a time, each within its own deadline.
	wmu sync.Mutex
	// held is the bytes of the messages built for the client and not yet
	// written (Pipeline.Hold), bounded by the router's StreamBufferBytes
	// beyond the first.
	held atomic.Int64

	mu sync.Mutex
	// subs holds the running operations by id, in a slice: a connection
	// has few (MaxSubscriptionsPerConnection), and a map costs more.
	subs     []*wsSub
	pending  []*wsSub // push subscriptions with news, for drain
	draining bool     // a drain goroutine is running
}

// wsSub is a running operation of a connection.
type wsSub struct {
	key  string // the operation's id
	id   []byte // as JSON
	stop context.CancelCauseFunc
	// started is closed once the operation has started: its source
	// stream is open (a subscription) or its answer is known. A ping
	// is answered once every operation received before it has started.
	started chan struct{}
	// A push subscription (schema.SubscriptionSink) has no goroutine of
	// its own: its queue tells the connection of events, and the
	// connection's drain goroutine executes and sends them.
	op     transport.Operation
	sctx   context.Context // the subscription's
	queued bool            // in pending; guarded by the connection's mu
	done   bool            // released; used by drain only
	failed bool            // a write failed; used by drain only
}

// Config configures the transport; the router fills it from
// graft.SubscriptionConfig with every default applied.
type Config struct {
	// OnConnect receives the payload of connection_init; see
	// graft.SubscriptionConfig.OnConnect.
	OnConnect func(ctx context.Context, payload map[string]any) (context.Context, error)
	// KeepAlive is the interval of pings (none when not positive);
	// InitTimeout bounds the wait for connection_init; WriteTimeout bounds
	// one write.
	KeepAlive, InitTimeout, WriteTimeout time.Duration
	// MaxSubscriptionsPerConnection bounds the operations running on one
	// connection.
	MaxSubscriptionsPerConnection int
	// OriginPatterns lists the origins browsers may connect from.
	OriginPatterns []string
	// CSRF turns on CSRF prevention: an upgrade from another origin that
	// carries cookies is refused unless OriginPatterns names its host (or
	// origin) exactly.
	CSRF bool
	// ReadLimit bounds one message from a client.
	ReadLimit int64
}

// Pipeline is what the transport needs of the router.
type Pipeline interface {
	transport.Pipeline
	// Admit runs an upgrade request through Config.Auth (and, when there
	// is an Auth to refuse it, through the door): it returns the
	// connection's context, or the refusal to answer with. Each operation
	// on the connection passes the door on its own in Run.
	Admit(req *http.Request) (ctx context.Context, refusal *httpapi.Response)
	// Run runs one operation a connection received (decoded from its
	// subscribe message) through the door and the pipeline with ctx,
	// which the transport cancels to end a subscription; raw describes
	// the upgrade request (method, path, headers, client address).
	Run(ctx context.Context, req *httpapi.Request, raw *httpapi.RawRequest) transport.Operation
	// Enter counts an operation toward the router's in-flight bound until
	// Leave, or returns the error to answer it with when the bound is
	// reached.
	Enter() *gqlerror.Error
	// Leave ends what Enter counted.
	Leave()
	// Hold reserves body, a payload about to be sent on a connection
	// whose held bytes are conn, in the router's buffered-bytes budget
	// and in the connection's share (the router's StreamBufferBytes
	// beyond its first message), and returns what to send: body, or the
	// SERVER_BUSY answer when either cannot hold it. release gives the
	// bytes back once written or dropped.
	Hold(conn *atomic.Int64, body []byte) (send []byte, release func())
}

// Server is the WebSocket transport of one router.
type Server struct {
	cfg Config
	p   Pipeline
	hub *transport.Hub
	// inits closes connections not initialised in time; pings sends the
	// keep-alive pings of the initialised ones.
	inits, pings *transport.Clock[*wsConn]
}

// New returns the transport, reporting to hub.
func New(cfg Config, p Pipeline, hub *transport.Hub) *Server {
	s := &Server{cfg: cfg, p: p, hub: hub}
	s.inits = transport.NewClock(cfg.InitTimeout, (*wsConn).initExpired)
	s.pings = transport.NewClock(cfg.KeepAlive, (*wsConn).keepAlive)
	return s
}

// Match reports whether req is a WebSocket upgrade.
func (s *Server) Match(req *http.Request) bool { return Match(req) }

// Match reports whether req is a WebSocket upgrade.
func Match(req *http.Request) bool {
	return req.Method == http.MethodGet && headerHasToken(req.Header.Values("Connection"), "upgrade") &&
		strings.EqualFold(req.Header.Get("Upgrade"), "websocket")
}

// headerHasToken reports whether a comma-separated header holds token.
func headerHasToken(values []string, token string) bool {
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(part), token) {
				return true
			}
		}
	}
	return false
}

// ServeHTTP serves a graphql-transport-ws connection.
func (s *Server) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	// The upgrade passes the door: a refusal is answered, logged and
	// measured like any other; an accepted upgrade's operations each
	// pass it in turn.
	ctx, refusal := s.p.Admit(req)
	if refusal != nil {
		transport.WriteHTTP(w, refusal)
		return
	}
	raw := &httpapi.RawRequest{Method: req.Method, Path: req.URL.Path, RawQuery: req.URL.RawQuery,
		Header: req.Header.Get, Remote: req.RemoteAddr}
	if s.cfg.CSRF && crossSiteWithCredentials(req, s.cfg.OriginPatterns) {
		transport.WriteHTTP(w, s.p.Refuse(req.Context(), raw, &httpapi.Error{Status: http.StatusForbidden, Err: gqlerr.New(gqlerr.CSRFPreventionBlocked,
			"This WebSocket upgrade has been blocked as a potential Cross-Site WebSocket Hijacking: "+
				"it carries cookies from an origin not listed explicitly in the allowed WebSocket origins.")}))
		return
	}
	if !s.hub.AcquireConn() {
		transport.WriteHTTP(w, s.p.Refuse(req.Context(), raw, transport.TooManyConnections()))
		return
	}
	// The server's read and write timeouts stay on a hijacked connection;
	// the protocol's own keep-alive and write timeout take over.
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	sb := &smallBuffers{ResponseWriter: w, timeout: s.cfg.WriteTimeout}
	c, err := websocket.Accept(sb, req, &websocket.AcceptOptions{
		Subprotocols:   []string{wsProtocol},
		OriginPatterns: s.cfg.OriginPatterns,
	})
	if err != nil {
		s.hub.ReleaseConn()
		return // Accept answered the request
	}
	if c.Subprotocol() != wsProtocol {
		_ = c.Close(wsSubprotocol, "Subprotocol not acceptable")
		s.hub.ReleaseConn()
		return
	}
	c.SetReadLimit(s.cfg.ReadLimit)
	// The connection is served by goroutines of its own, so this handler
	// returns and net/http lets go of the request, its buffers and its
	// goroutine's stack: an idle connection costs one shallow goroutine.
	// The request's context ends when the handler returns; its values
	// stay.
	conn := &wsConn{s: s, c: c, ctx: context.WithoutCancel(ctx),
		raw: httpapi.RawRequest{Method: req.Method, Path: req.URL.Path, Header: newWSHeader(req.Header).Get, Remote: req.RemoteAddr},
		br:  sb.br, src: sb.src, ready: readyFunc(sb.conn)}
	if conn.ready != nil {
		conn.idle = poll.Watch(sb.conn, conn.resume)
		sb.src.idle = conn.idle
	}
	if !s.hub.Track(conn) {
		conn.Shutdown()
	}
	conn.initTicket.Store(s.inits.Add(conn))
	switch {
	case conn.idle != nil:
		go conn.resume()
	case conn.ready != nil:
		go conn.wait()
	default:
		go conn.serve()
	}
}

// crossSiteWithCredentials reports whether a WebSocket upgrade carries
// cookies from another origin than the server's that patterns do not
// list explicitly. A browser sends cookies with an upgrade from any
// site, with no preflight, so CSRF prevention holds it to the rule of a
// simple cross-site POST: refused unless its origin is trusted by name.
// A pattern with a wildcard ("*", "*.example.com") never trusts it, and
// Origin: null (sandboxed frames, local files) never matches. An upgrade
// without Origin comes from a client that is not a browser.
func crossSiteWithCredentials(req *http.Request, patterns []string) bool {
	origin := req.Header.Get("Origin")
	if origin == "" || req.Header.Get("Cookie") == "" {
		return false
	}
	u, err := url.Parse(origin)
	if err != nil || origin == "null" || u.Host == "" {
		return true
	}
	if strings.EqualFold(u.Host, req.Host) {
		return false
	}
	for _, p := range patterns {
		if !strings.ContainsAny(p, "*?[\\") && (strings.EqualFold(p, u.Host) || strings.EqualFold(p, origin)) {
			return false
		}
	}
	return true
}

// The sizes of the read and of the write buffer of a WebSocket
// connection. A message larger than the read buffer is read into the
// message itself, so a small buffer costs a system call more per large
// message and saves memory on every idle connection. Clients send few and
// small messages (subscribe, complete, ping, pong): the read buffer holds
// the small ones whole. The connection's own messages are gathered in a
// pooled buffer while they are written (wsSource.collect) and go out in
// one system call, so the library's write buffer only has to hold a frame
// header.
const (
	wsReadBufferSize  = 128
	wsWriteBufferSize = 16
)

// smallBuffers is a ResponseWriter whose Hijack hands the WebSocket
// library small buffers instead of net/http's (4 KiB each), keeping the
// bytes already read. It keeps the connection and the reader it handed
// over. It relies on websocket.Accept hijacking through the writer it is
// given and reading through the buffers it gets back: the seam's test,
// TestSeamWebSocketAccept, fails when a library upgrade changes that.
type smallBuffers struct {
	http.ResponseWriter
	timeout time.Duration // bounds each write (none when zero)
	conn    net.Conn
	br      *bufio.Reader
	src     *wsSource
}

// Hijack takes over the connection.
func (w *smallBuffers) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	// What net/http still holds to write (the end of the 101 response)
	// goes first.
	if err := brw.Writer.Flush(); err != nil {
		_ = conn.Close()
		return nil, nil, err
	}
	// The bytes net/http has read past the request are read first. The
	// library reads them through the connection it is handed, so they
	// stay where the connection's reader can see them (see buffered).
	b, _ := brw.Reader.Peek(brw.Reader.Buffered())
	w.conn, w.src = conn, &wsSource{Conn: conn, pending: bytes.Clone(b), timeout: w.timeout}
	w.br = bufio.NewReaderSize(w.src, wsReadBufferSize)
	return w.src, bufio.NewReadWriter(w.br, bufio.NewWriterSize(w.src, wsWriteBufferSize)), nil
}

// wsSource is the connection handed to the WebSocket library: the bytes
// read before the upgrade come first, then the socket's.
type wsSource struct {
	net.Conn
	pending []byte
	// idle, when the connection waits with no goroutine, is woken when
	// the library (or the connection) closes the socket, so that the
	// reader sees the end.
	idle *poll.Handle
	// out, while the connection writes a message (collect), gathers
	// what the library writes; otherwise (the library's own control
	// frames) writes go to the socket.
	omu sync.Mutex
	out *[]byte
	// timeout bounds every write to the socket: the write deadline is
	// moved forward only when less than seven eighths of it is left
	// (until), rather than set and cleared around every write (two
	// runtime timer changes), so a write may fail after between 7/8 of
	// timeout and timeout.
	timeout time.Duration
	until   atomic.Int64 // the deadline set, in Unix nanoseconds
}

// bound keeps the write deadline at least 7/8 of the timeout away.
func (s *wsSource) bound() {
	if s.timeout <= 0 {
		return
	}
	now := time.Now()
	if s.until.Load()-now.UnixNano() < int64(s.timeout-s.timeout/8) {
		dl := now.Add(s.timeout)
		_ = s.Conn.SetWriteDeadline(dl)
		s.until.Store(dl.UnixNano())
	}
}

// outPool holds the buffers messages are gathered in while written.
var outPool = sync.Pool{New: func() any { return new([]byte) }}

// Write writes p to the socket, or to the message being gathered.
func (s *wsSource) Write(p []byte) (int, error) {
	s.omu.Lock()
	if s.out != nil {
		*s.out = append(*s.out, p...)
		s.omu.Unlock()
		return len(p), nil
	}
	s.omu.Unlock()
	s.bound()
	return s.Conn.Write(p)
}

// collect gathers what the library writes from now on, until flush.
func (s *wsSource) collect() {
	b := outPool.Get().(*[]byte)
	s.omu.Lock()
	s.out = b
	s.omu.Unlock()
}

// flush writes what was gathered since collect to the socket in one
// write, within the write timeout, and writes to the socket again.
func (s *wsSource) flush() error {
	s.omu.Lock()
	b := s.out
	s.out = nil
	s.omu.Unlock()
	var err error
	if len(*b) > 0 {
		s.bound()
		_, err = s.Conn.Write(*b)
	}
	if cap(*b) <= smallAnswer+64 {
		*b = (*b)[:0]
		outPool.Put(b)
	}
	return err
}

// Close closes the socket and wakes a reader waiting for it.
func (s *wsSource) Close() error {
	err := s.Conn.Close()
	if s.idle != nil {
		s.idle.Closed()
	}
	return err
}

// Read reads the pending bytes, then the socket.
func (s *wsSource) Read(p []byte) (int, error) {
	if len(s.pending) == 0 {
		return s.Conn.Read(p)
	}
	n := copy(p, s.pending)
	s.pending = s.pending[n:]
	if len(s.pending) == 0 {
		s.pending = nil
	}
	return n, nil
}

// serve reads and handles messages until the connection ends, on one
// goroutine, then ends the connection. It serves sockets whose input wait
// cannot tell when a message arrives (TLS).
func (c *wsConn) serve() {
	for c.handle() {
	}
	c.end()
}

// wait waits, on a goroutine with nothing else on its stack, until input
// arrives; then it reads and handles the messages that have arrived and
// hands the wait over to a new goroutine. The runtime cannot shrink the
// stack of a goroutine waiting deep in the WebSocket library's Read (it
// keeps the size its deepest call needed, 4 KiB or more); a new
// goroutine waiting here starts, and stays, at the smallest stack.
func (c *wsConn) wait() {
	if !c.buffered() && c.ready() != nil {
		// The socket is closed or failed; the read tells which.
		c.handle()
		c.end()
		return
	}
	for c.handle() {
		if !c.buffered() {
			go c.wait()
			return
		}
	}
	c.end()
}

// resume reads and handles the messages that have arrived, then waits
// for more with no goroutine (idle.Arm): resume runs again, on a new
// goroutine, when input arrives or the socket is closed.
func (c *wsConn) resume() {
	for c.handle() {
		if !c.buffered() && c.idle.Arm() {
			return
		}
		// Input is buffered, or the socket cannot be waited for: the
		// next read takes the input or reports the end.
	}
	c.idle.Stop()
	c.end()
}

// buffered reports whether the reader's buffer holds input.
func (c *wsConn) buffered() bool {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	return c.br.Buffered() > 0 || len(c.src.pending) > 0
}

// end ends the connection once its reader stopped: it cancels and waits
// for every subscription of the connection, closes the socket and
// releases the connection.
func (c *wsConn) end() {
	s := c.s
	c.ended.Store(true)
	s.hub.Untrack(c)
	s.inits.Remove(c, c.initTicket.Load())
	s.pings.Remove(c, c.pingTicket.Load())
	// The connection's end cancels every subscription.
	c.mu.Lock()
	for _, sub := range c.subs {
		sub.stop(context.Canceled)
	}
	c.mu.Unlock()
	c.wg.Wait()
	_ = c.c.CloseNow()
	s.hub.ReleaseConn()
}

// handle reads one message and handles it. It reports false when the
// connection ended.
func (c *wsConn) handle() bool {
	// Reads end when the connection closes (the client left, a close
	// code, shutdown); a context without cancellation saves the library
	// a callback per read.
	typ, data, err := c.c.Read(context.Background())
	if err != nil {
		return false
	}
	var m wsMessage
	if typ != websocket.MessageText || json.Unmarshal(data, &m) != nil {
		c.close(wsBadRequest, "Invalid message received")
		return false
	}
	switch m.Type {
	case "connection_init":
		if c.inited {
			c.close(wsTooManyInitRequests, "Too many initialisation requests")
			return false
		}
		c.inited = true
		return c.init(m.Payload)
	case "ping":
		c.pong()
	case "pong":
	case "subscribe":
		if !c.acked.Load() {
			c.close(wsUnauthorized, "Unauthorized")
			return false
		}
		if m.ID == "" || len(m.Payload) == 0 {
			c.close(wsBadRequest, "Invalid message received")
			return false
		}
		return c.subscribe(m.ID, m.Payload)
	case "complete":
		// The id is free again at once, though the operation may still
		// be finishing.
		c.mu.Lock()
		if sub := c.find(m.ID); sub != nil {
			sub.stop(errClientComplete)
			c.remove(sub)
		}
		c.mu.Unlock()
	default:
		c.close(wsBadRequest, "Invalid message received")
		return false
	}
	return true
}

// init runs the OnConnect hook and acknowledges the connection.
func (c *wsConn) init(payload json.RawMessage) bool {
	if hook := c.s.cfg.OnConnect; hook != nil {
		var p map[string]any
		if len(payload) > 0 && string(payload) != "null" {
			if json.Unmarshal(payload, &p) != nil {
				c.close(wsBadRequest, "Invalid message received")
				return false
			}
		}
		octx, err := hook(c.ctx, p)
		if err != nil {
			c.close(wsForbidden, "Forbidden")
			return false
		}
		if octx != nil {
			c.ctx = octx
		}
	}
	// acked is set after the ack is written, so no ping precedes it.
	c.write([]byte(`{"type":"connection_ack"}`))
	c.acked.Store(true)
	s := c.s
	s.inits.Remove(c, c.initTicket.Load())
	if s.cfg.KeepAlive > 0 {
		c.pingTicket.Store(s.pings.Add(c))
	}
	return true
}

// initExpired closes c if it is not initialised when its init timeout
// passes. It runs in the clock's goroutine.
func (c *wsConn) initExpired() {
	if !c.acked.Load() && !c.ended.Load() {
		go c.close(wsInitTimeout, "Connection initialisation timeout")
	}
}

// keepAlive pings c and schedules its next ping, when c is still open.
// It runs in the clock's goroutine.
func (c *wsConn) keepAlive() {
	if c.ended.Load() {
		return
	}
	c.pingTicket.Store(c.s.pings.Add(c))
	go c.write([]byte(`{"type":"ping"}`))
}

// Shutdown is the hub's notice of shutdown (transport.Closer).
func (c *wsConn) Shutdown() { go c.shutdown() }

// shutdown completes every operation of the connection and closes it with
// 1001 Going Away.
func (c *wsConn) shutdown() {
	c.mu.Lock()
	for _, sub := range c.subs {
		sub.stop(errShutdown)
	}
	c.mu.Unlock()
	c.wg.Wait() // each operation sends its complete
	if !c.ended.Load() {
		c.close(websocket.StatusGoingAway, "Server shutting down")
	}
}

// subscribe starts operation id. It reports false when the connection
// was closed.
func (c *wsConn) subscribe(id string, payload json.RawMessage) bool {
	c.mu.Lock()
	if c.find(id) != nil {
		c.mu.Unlock()
		c.close(wsSubscriberExists, "Subscriber for "+id+" already exists")
		return false
	}
	idJSON, _ := json.Marshal(id)
	select {
	case <-c.s.hub.Closing():
		// No operation starts once shutdown has begun.
		c.mu.Unlock()
		c.sendErrors(idJSON, errorsBody(gqlerr.New(gqlerr.ShuttingDown, "The server is shutting down")))
		return true
	default:
	}
	if len(c.subs) >= c.s.cfg.MaxSubscriptionsPerConnection || !c.s.hub.AcquireSub() {
		c.mu.Unlock()
		c.sendErrors(idJSON, errorsBody(gqlerr.New(gqlerr.TooManySubscriptions, "Too many subscriptions: complete one first")))
		return true
	}
	sctx, stop := context.WithCancelCause(c.ctx)
	sub := &wsSub{key: id, id: idJSON, stop: stop, started: make(chan struct{})}
	c.subs = append(c.subs, sub)
	c.mu.Unlock()
	c.wg.Add(1)
	go func() {
		if !c.run(sctx, sub, payload) {
			c.release(sub)
		}
	}()
	return true
}

// pong answers a ping once every operation received before it has
// started (a subscription's source stream is open), so that a client can
// send subscribe then ping and know, at the pong, that the subscription
// is registered: events published after it reach the subscriber.
func (c *wsConn) pong() {
	c.mu.Lock()
	var waits []chan struct{}
	for _, sub := range c.subs {
		select {
		case <-sub.started:
		default:
			waits = append(waits, sub.started)
		}
	}
	c.mu.Unlock()
	if len(waits) == 0 {
		c.write([]byte(`{"type":"pong"}`))
		return
	}
	go func() {
		for _, w := range waits {
			<-w
		}
		c.write([]byte(`{"type":"pong"}`))
	}()
}

// find returns the running operation id, or nil; c.mu is held.
func (c *wsConn) find(id string) *wsSub {
	for _, sub := range c.subs {
		if sub.key == id {
			return sub
		}
	}
	return nil
}

// remove removes sub from the running operations, if it is there; c.mu
// is held.
func (c *wsConn) remove(sub *wsSub) {
	if i := slices.Index(c.subs, sub); i >= 0 {
		c.subs = slices.Delete(c.subs, i, i+1)
		if len(c.subs) == 0 {
			c.subs = nil
		}
	}
}

// release ends the bookkeeping of sub, once.
func (c *wsConn) release(sub *wsSub) {
	c.mu.Lock()
	c.remove(sub)
	c.mu.Unlock()
	sub.stop(nil)
	c.s.hub.ReleaseSub()
	c.wg.Done()
}

// run runs one operation of the connection and sends its messages. sctx
// is the operation's context. It reports true when it handed a push
// subscription over to the connection's drain, which then sends its
// events and releases it.
func (c *wsConn) run(sctx context.Context, sub *wsSub, payload json.RawMessage) bool {
	id := sub.id
	req, e := httpapi.Decode(&httpapi.RawRequest{Method: http.MethodPost, ContentType: httpapi.MediaJSON, Body: payload})
	if e != nil {
		close(sub.started)
		c.sendErrors(id, errorsBody(e.Err))
		return false
	}
	// A query or mutation counts toward the router's in-flight bound, as
	// over HTTP, until its answer is written; a subscription only while
	// it starts.
	if err := c.s.p.Enter(); err != nil {
		close(sub.started)
		c.sendErrors(id, errorsBody(err))
		return false
	}
	op := c.s.p.Run(sctx, &req, &c.raw)
	close(sub.started)
	if op.Streaming() {
		c.s.p.Leave()
	} else {
		defer c.s.p.Leave()
	}
	switch {
	case !op.Streaming() && op.Response().Status != http.StatusOK:
		// A request error: one error message, no complete.
		c.sendErrors(id, op.Response().Body)
		return false
	case !op.Streaming():
		c.sendNext(id, op.Response().Body)
	default:
		sub.op, sub.sctx = op, sctx
		if op.Watch(func() { c.schedule(sub) }) {
			return true
		}
		_ = op.Pump(func(body []byte) error {
			if !c.sendNext(id, body) {
				return errNotStream
			}
			return nil
		})
	}
	c.complete(sctx, id)
	return false
}

// complete sends the complete message of a subscription that ended,
// unless the client asked for the end or the connection is gone.
func (c *wsConn) complete(sctx context.Context, id []byte) {
	if cause := context.Cause(sctx); cause == errClientComplete || (cause != nil && cause != errShutdown) {
		return
	}
	c.write(wsFrame(id, "complete", nil))
}

// schedule queues sub for the drain goroutine, starting one when none
// runs. It is called by sub's source, which it must not block.
func (c *wsConn) schedule(sub *wsSub) {
	c.mu.Lock()
	if !sub.queued {
		sub.queued = true
		c.pending = append(c.pending, sub)
	}
	start := !c.draining
	c.draining = true
	c.mu.Unlock()
	if start {
		go c.drain()
	}
}

// drain sends the events of the push subscriptions with news, one
// subscription at a time, and returns once none has any: an idle
// connection has no drain goroutine.
func (c *wsConn) drain() {
	for {
		c.mu.Lock()
		if len(c.pending) == 0 {
			c.pending = nil
			c.draining = false
			c.mu.Unlock()
			return
		}
		sub := c.pending[0]
		c.pending[0] = nil
		c.pending = c.pending[1:]
		sub.queued = false
		c.mu.Unlock()
		c.deliver(sub)
	}
}

// deliver executes and sends the events waiting for sub and, once its
// stream has ended, completes and releases it.
func (c *wsConn) deliver(sub *wsSub) {
	if sub.done {
		return
	}
	ended := sub.op.Drain(func(body []byte) error {
		if sub.failed {
			return errNotStream // what waits is dropped
		}
		if !c.sendNext(sub.id, body) {
			// The connection is closing; the end of sub's context ends
			// its stream and schedules it again.
			sub.failed = true
			sub.stop(errNotStream)
			return errNotStream
		}
		return nil
	})
	if ended {
		sub.done = true
		c.complete(sub.sctx, sub.id)
		c.release(sub)
	}
}

// sendNext sends a next message of operation id whose payload is body,
// held in the router's budget and in the connection's share while it
// waits and is written; the SERVER_BUSY answer goes in its place when
// they cannot hold it. A large payload is written as it is, framed
// around it, rather than copied into a message.
func (c *wsConn) sendNext(id, body []byte) bool {
	body, release := c.s.p.Hold(&c.held, body)
	defer release()
	if len(body) < smallAnswer {
		return c.write(wsFrame(id, "next", body))
	}
	return c.writeParts([]byte(`{"id":`), id, []byte(`,"type":"next","payload":`), body, []byte("}"))
}

// sendErrors sends an error message whose payload is the errors array of
// body, a {"errors":[...]} response.
func (c *wsConn) sendErrors(id, body []byte) {
	var resp struct {
		Errors json.RawMessage `json:"errors"`
	}
	if json.Unmarshal(body, &resp) != nil || len(resp.Errors) == 0 {
		resp.Errors = json.RawMessage(`[{"message":"Internal server error","extensions":{"code":"INTERNAL_SERVER_ERROR"}}]`)
	}
	c.write(wsFrame(id, "error", resp.Errors))
}

// smallAnswer is the size from which a payload is written as it is,
// framed around it, rather than copied into a message.
const smallAnswer = 64 << 10

// wsFrame builds {"id":id,"type":typ,"payload":payload}.
func wsFrame(id []byte, typ string, payload []byte) []byte {
	b := make([]byte, 0, len(payload)+len(id)+40)
	b = append(b, `{"id":`...)
	b = append(b, id...)
	b = append(b, `,"type":"`...)
	b = append(b, typ...)
	b = append(b, '"')
	if payload != nil {
		b = append(b, `,"payload":`...)
		b = append(b, payload...)
	}
	return append(b, '}')
}

// write sends one message within the write timeout; a consumer too slow
// for it loses the connection. It reports whether the write succeeded.
// The message is gathered in a pooled buffer and written in one system
// call (wsSource.collect). The timeout is the socket's write deadline,
// kept ahead of every write (wsSource.bound), rather than a context,
// which the WebSocket library would keep, with its timer, until the next
// write.
func (c *wsConn) write(msg []byte) bool {
	if c.ended.Load() {
		return false
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.src.collect()
	err := c.c.Write(context.Background(), websocket.MessageText, msg)
	if ferr := c.src.flush(); err == nil {
		err = ferr
	}
	if err != nil {
		_ = c.c.CloseNow()
		return false
	}
	return true
}

// writeParts sends one large message made of parts, as write does,
// without copying them into one buffer: the library writes them to the
// socket as they come.
func (c *wsConn) writeParts(parts ...[]byte) bool {
	if c.ended.Load() {
		return false
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	w, err := c.c.Writer(context.Background(), websocket.MessageText)
	if err == nil {
		for _, p := range parts {
			if _, err = w.Write(p); err != nil {
				break
			}
		}
		if cerr := w.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		_ = c.c.CloseNow()
		return false
	}
	return true
}

// close closes the connection with a protocol close code.
func (c *wsConn) close(code websocket.StatusCode, reason string) {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	_ = c.c.Close(code, reason)
}
