// Package ws is graft's WebSocket transport: the graphql-transport-ws
// protocol of the graphql-ws library, for subscriptions, queries and
// mutations. A Server matches upgrade requests, serves each connection on
// goroutines of its own, starts every operation through the pipeline's
// door (Pipeline.Run) and counts its connections and subscriptions in the
// router's transport.Hub, which tells it of shutdown.
package ws

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unique"
	"unsafe"

	"github.com/gobwas/ws"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/graftgql/graft/internal/clip"
	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/httpapi"
	"github.com/graftgql/graft/internal/prefetch"
	"github.com/graftgql/graft/internal/transport"
	"github.com/graftgql/graft/internal/transport/poll"
)

// wsProtocol is the WebSocket subprotocol of the graphql-ws library.
const wsProtocol = "graphql-transport-ws"

// Close codes of the graphql-transport-ws protocol.
const (
	wsBadRequest          ws.StatusCode = 4400
	wsUnauthorized        ws.StatusCode = 4401
	wsForbidden           ws.StatusCode = 4403
	wsSubprotocol         ws.StatusCode = 4406
	wsInitTimeout         ws.StatusCode = 4408
	wsSubscriberExists    ws.StatusCode = 4409
	wsTooManyInitRequests ws.StatusCode = 4429
)

// closeTimeout bounds the wait for the client's close frame once the
// server sent its own; the socket is closed then.
const closeTimeout = 5 * time.Second

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
	ID      string
	Type    string
	Payload json.RawMessage // nil when absent
}

// decodeMessage decodes a client message: a JSON object whose type is a
// string and whose id, when present, is a string or null. The names are
// matched exactly, as the protocol spells them: {"TYPE":…} has no type
// (encoding/json alone would match names in any case).
func decodeMessage(data []byte, m *wsMessage) bool {
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) != nil || fields == nil {
		return false
	}
	t, ok := fields["type"]
	if !ok || json.Unmarshal(t, &m.Type) != nil {
		return false
	}
	if id, ok := fields["id"]; ok && json.Unmarshal(id, &m.ID) != nil {
		return false
	}
	m.Payload = fields["payload"]
	return true
}

// wsConn is one graphql-transport-ws connection: the socket and what the
// protocol needs, with no buffer while the connection is idle.
//
// The fields an event's delivery reads and writes come first, in the
// first two cache lines (128 bytes; a wsConn's size class, 320 bytes, is
// a multiple of 64, so it starts on a line): a publish to thousands of
// connections reads each one's state from memory, line by line.
type wsConn struct {
	s *Server

	ended   atomic.Bool // the reader stopped: nothing more is sent
	closing atomic.Bool // a close frame was sent (set under wmu)

	// wmu makes writes one at a time, each one frame in one write within
	// the write timeout, or, from a worker, without waiting: a frame the
	// socket took a part of holds wmu until its rest is written (see
	// tryWrite). until is the write deadline set, in Unix nanoseconds, or 0
	// (see bound).
	wmu   sync.Mutex
	until atomic.Int64
	// held is the bytes of the messages built for the client and not yet
	// written (Pipeline.Hold), bounded by the router's StreamBufferBytes
	// beyond the first.
	held atomic.Int64

	mu sync.Mutex
	// head and tail are the queue of push subscriptions with news, for
	// drain, linked through wsSub.nextQueued; guarded by mu. head is
	// atomic for Prefetch, which reads it without mu.
	head atomic.Pointer[wsSub]
	tail *wsSub

	// raw writes the socket without waiting, when hasRaw: a plain
	// socket, whose delivery runs on the hub's workers (see deliver).
	// The socket closes through it (closeSocket, end).
	raw    transport.RawWriter
	hasRaw bool

	draining bool // a delivery is scheduled or runs; guarded by mu
	pingDue  bool // a keep-alive ping waits for the delivery; guarded by mu

	// Owned by the delivery (deliver): dsub is the subscription being
	// delivered; cur one whose delivery paused, to go on with; rest what
	// a write that could not wait left unwritten, and restHeld its bytes
	// held in the budget; restLocked says a part of a frame was written
	// and wmu is held until the rest is; waiting says the delivery runs
	// on a goroutine of its own and its writes may wait.
	restLocked bool
	waiting    bool
	dsub, cur  *wsSub
	rest       []byte
	restHeld   int

	conn net.Conn
	ctx  context.Context // the connection's: Auth's and OnConnect's values
	// What each operation enters the pipeline with of the upgrade
	// request: its headers and client address.
	header func(name string) string
	remote string

	acked  atomic.Bool
	inited bool // connection_init was received; used by the reader only
	wg     sync.WaitGroup

	// Tickets of the connection's deadlines in the hub's clocks.
	initTicket, pingTicket atomic.Uint64

	// An idle connection has no goroutine: idle, when the socket allows
	// it, wakes the reader when input arrives (see resume); otherwise a
	// goroutine reads (serve). early holds the bytes read with the
	// upgrade request, which come before the socket's; the reader's
	// goroutine alone uses it.
	idle  *poll.Handle
	early *[]byte

	// subs holds the running operations by id, in a slice: a connection
	// has few (MaxSubscriptionsPerConnection), and a map costs more;
	// guarded by mu.
	subs []*wsSub
	// pongsDue counts the client's pings whose pong waits for operations
	// to start, for the one goroutine that waits (pongWaits); guarded by
	// mu.
	pongsDue  int
	pongWaits bool

	// send is Send, bound once, for operations that do not frame.
	send func([]byte) error

	// The size class of 320 bytes, a multiple of 64: the next down, 288,
	// would start every other wsConn in the middle of a line.
	_ [32]byte
}

// wsSub is a running operation of a connection.
type wsSub struct {
	key  string // the operation's id
	id   string // as JSON
	stop context.CancelCauseFunc
	// started is closed once the operation has started: its source
	// stream is open (a subscription) or its answer is known. A ping
	// is answered once every operation received before it has started.
	// Once closed, it is replaced by the shared closed channel.
	started chan struct{}
	// A push subscription (schema.SubscriptionSink) has no goroutine of
	// its own: its queue tells the connection of events, and the
	// connection's delivery executes and sends them.
	op   transport.Operation
	sctx context.Context // the subscription's
	// framed is op's, when it frames its events, and fkey the key of
	// this subscription's framing (nil: its payloads are framed here).
	framed     transport.FramedDrainer
	fkey       any
	nextQueued *wsSub // the next in the connection's queue; guarded by its mu
	queued     bool   // in the connection's queue; guarded by its mu
	done       bool   // released; used by drain only
	failed     bool   // a write failed; used by drain only
	// completed says the client completed the operation: nothing more of
	// it is sent. It is set by the reader, which then waits for a write
	// under way (wmu), and read under wmu before each frame of it.
	completed atomic.Bool
}

// closedChan is a closed channel: a started operation's.
var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

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
	// ReadLimit bounds one message from a client (none when not
	// positive): a larger one closes the connection with 1009.
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
	// the upgrade request (method, headers, client address).
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
	// SERVER_BUSY answer when either cannot hold it, and the bytes held,
	// which Release gives back once written or dropped.
	Hold(conn *atomic.Int64, body []byte) (send []byte, held int)
	// Release gives back the bytes Hold held for conn.
	Release(conn *atomic.Int64, held int)
}

// Server is the WebSocket transport of one router.
type Server struct {
	cfg Config
	p   Pipeline
	hub *transport.Hub
	// inits closes connections not initialised in time; pings sends the
	// keep-alive pings of the initialised ones.
	inits, pings *transport.Clock[*wsConn]
	upgrader     ws.HTTPUpgrader
}

// New returns the transport, reporting to hub.
func New(cfg Config, p Pipeline, hub *transport.Hub) *Server {
	s := &Server{cfg: cfg, p: p, hub: hub}
	s.inits = transport.NewClock(cfg.InitTimeout, (*wsConn).initExpired)
	s.pings = transport.NewClock(cfg.KeepAlive, (*wsConn).keepAlive)
	// The subprotocol is chosen as the client spells it; only
	// graphql-transport-ws is served (4406 otherwise). No extension is
	// negotiated: messages are not compressed.
	s.upgrader = ws.HTTPUpgrader{Timeout: cfg.WriteTimeout, Protocol: func(p string) bool { return p == wsProtocol }}
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
	if e := checkHandshake(req, s.cfg.OriginPatterns); e != nil {
		if e.Status == http.StatusUpgradeRequired {
			w.Header().Set("Sec-WebSocket-Version", "13")
		}
		transport.WriteHTTP(w, s.p.Refuse(req.Context(), raw, e))
		return
	}
	if !s.hub.AcquireConn() {
		transport.WriteHTTP(w, s.p.Refuse(req.Context(), raw, transport.TooManyConnections()))
		return
	}
	// The upgrader takes the connection over from net/http (clearing the
	// server's read and write deadlines: the protocol's own keep-alive
	// and write timeout take over) and answers 101 in one write.
	conn, rw, hs, err := s.upgrader.Upgrade(req, w)
	if err != nil {
		if conn != nil {
			_ = conn.Close()
		}
		s.hub.ReleaseConn()
		return
	}
	if s.cfg.WriteTimeout > 0 {
		// The connection bounds its writes itself (bound): a listener's
		// wrapper that bounds them too (graft.Serve's, a poll.Wrapper) is
		// left out, with its memory.
		conn = poll.Unwrap(conn)
	}
	// The connection is served by goroutines of its own, so this handler
	// returns and net/http lets go of the request, its buffers and its
	// goroutine. The request's context ends when the handler returns; its
	// values stay.
	c := &wsConn{s: s, conn: conn, ctx: context.WithoutCancel(ctx), header: noHeader, remote: req.RemoteAddr}
	if h := newWSHeader(req.Header); h != "" {
		c.header = h.Get
	}
	if n := rw.Reader.Buffered(); n > 0 {
		// What the client sent after the request, before the answer.
		b, _ := rw.Reader.Peek(n)
		early := bytes.Clone(b)
		c.early = &early
	}
	c.hasRaw = c.raw.Init(conn)
	c.send = c.Send
	c.idle = poll.Watch(conn, c.resume)
	if !s.hub.Track(c) {
		c.Shutdown()
	}
	c.initTicket.Store(s.inits.Add(c))
	if hs.Protocol != wsProtocol {
		c.close(wsSubprotocol, "Subprotocol not acceptable")
	}
	if c.idle != nil {
		go c.resume()
	} else {
		go c.serve()
	}
}

// noHeader is the header of an upgrade with none but the handshake's.
func noHeader(string) string { return "" }

// checkHandshake checks an upgrade request as RFC 6455 asks (the version,
// the key) and its Origin against patterns, and returns the refusal to
// answer with, or nil. A browser's upgrade from another origin than the
// server's is refused (403 FORBIDDEN) unless patterns match its host, or
// its scheme and host for a pattern with "://" (path.Match patterns, any
// case).
func checkHandshake(req *http.Request, patterns []string) *httpapi.Error {
	if !req.ProtoAtLeast(1, 1) {
		return &httpapi.Error{Status: http.StatusBadRequest, Err: gqlerr.New(gqlerr.BadRequest, "A WebSocket upgrade needs HTTP/1.1")}
	}
	// The upgrader reads the first Connection header alone, as a list
	// of tokens: what it would refuse with an answer of its own is
	// refused here.
	if c := req.Header.Get("Connection"); !tokenList(c) || !headerHasToken([]string{c}, "upgrade") {
		return &httpapi.Error{Status: http.StatusBadRequest, Err: gqlerr.New(gqlerr.BadRequest, "A WebSocket upgrade needs Connection: Upgrade")}
	}
	if req.Host == "" {
		return &httpapi.Error{Status: http.StatusBadRequest, Err: gqlerr.New(gqlerr.BadRequest, "A WebSocket upgrade needs a Host")}
	}
	if req.ContentLength != 0 {
		// The bytes of a body would be read as the connection's first
		// frames: what an intermediary forwarded as the request's body
		// would reach the protocol.
		return &httpapi.Error{Status: http.StatusBadRequest, Err: gqlerr.New(gqlerr.BadRequest, "A WebSocket upgrade has no body")}
	}
	if v := req.Header.Get("Sec-WebSocket-Version"); v != "13" {
		return &httpapi.Error{Status: http.StatusUpgradeRequired, Err: gqlerr.New(gqlerr.BadRequest, "Unsupported WebSocket version: only 13 is served")}
	}
	keys := req.Header.Values("Sec-WebSocket-Key")
	if len(keys) != 1 {
		return &httpapi.Error{Status: http.StatusBadRequest, Err: gqlerr.New(gqlerr.BadRequest, "A WebSocket upgrade needs one Sec-WebSocket-Key")}
	}
	if k, err := base64.StdEncoding.DecodeString(keys[0]); err != nil || len(k) != 16 || len(keys[0]) != 24 {
		return &httpapi.Error{Status: http.StatusBadRequest, Err: gqlerr.New(gqlerr.BadRequest, "Invalid Sec-WebSocket-Key: it must be 16 bytes in base64")}
	}
	for _, v := range req.Header.Values("Sec-WebSocket-Protocol") {
		if !tokenList(v) {
			// The upgrader would refuse it with an answer of its own.
			return &httpapi.Error{Status: http.StatusBadRequest, Err: gqlerr.New(gqlerr.BadRequest,
				"Invalid Sec-WebSocket-Protocol: it must be a list of subprotocol names")}
		}
	}
	if !originAllowed(req, patterns) {
		return &httpapi.Error{Status: http.StatusForbidden, Err: gqlerr.New(gqlerr.Forbidden,
			"This WebSocket upgrade comes from an origin that is not allowed: list it in the allowed WebSocket origins")}
	}
	return nil
}

// tokenList reports whether v is a comma-separated list of at least one
// token (RFC 9110 5.6.1, 5.6.2), as a Sec-WebSocket-Protocol value is.
func tokenList(v string) bool {
	named := false
	for part := range strings.SplitSeq(v, ",") {
		part = strings.Trim(part, " \t")
		if part == "" {
			continue
		}
		for i := 0; i < len(part); i++ {
			if c := part[i]; c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
				return false
			}
		}
		named = true
	}
	return named
}

// originAllowed reports whether req has no Origin (a client that is not
// a browser), the server's own host, or one patterns match.
func originAllowed(req *http.Request, patterns []string) bool {
	origin := req.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	if strings.EqualFold(u.Host, req.Host) {
		return true
	}
	for _, p := range patterns {
		target := u.Host
		if strings.Contains(p, "://") {
			target = u.Scheme + "://" + u.Host
		}
		if ok, err := path.Match(strings.ToLower(p), strings.ToLower(target)); err == nil && ok {
			return true
		}
	}
	return false
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

// serve reads and handles messages until the connection ends, on one
// goroutine, then ends the connection. It serves sockets the poller
// cannot wait for (TLS, systems other than Linux).
func (c *wsConn) serve() {
	rd := getReader(c)
	for c.handle(rd) {
	}
	rd.put()
	c.end()
}

// resume reads and handles the messages that have arrived, then waits
// for more with no goroutine and no buffer (idle.Arm): resume runs
// again, on a new goroutine, when input arrives or the socket is closed.
func (c *wsConn) resume() {
	rd := getReader(c)
	for c.handle(rd) {
		if rd.buffered() {
			continue
		}
		rd.put()
		if c.idle.Arm() {
			return
		}
		// The socket cannot be waited for: the next read takes the
		// input or reports the end.
		rd = getReader(c)
	}
	rd.put()
	c.idle.Stop()
	c.end()
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
	_ = c.raw.Close(c.conn)
	s.hub.ReleaseConn()
}

// closeSocket closes the socket at once and wakes a reader waiting for
// it, so that the reader sees the end.
func (c *wsConn) closeSocket() {
	_ = c.raw.Close(c.conn)
	if c.idle != nil {
		c.idle.Closed()
	}
}

// handle reads one message and handles it. It reports false when the
// connection ended.
func (c *wsConn) handle(rd *reader) bool {
	op, data, err := rd.next(c.s.cfg.ReadLimit)
	if err != nil {
		if ce, ok := err.(*closeErr); ok && ce != errPeerClosed {
			// The client broke the protocol: the connection fails, its
			// close frame sent first.
			c.close(ce.code, ce.reason)
		}
		return false
	}
	if c.closing.Load() {
		// The server's close frame was sent: what comes before the
		// client's is dropped.
		return true
	}
	if op == ws.OpText {
		// The keep-alive messages as clients write them are known by
		// their bytes, with nothing decoded: an idle connection's pings
		// and pongs leave no garbage.
		switch string(data) {
		case `{"type":"pong"}`:
			return true
		case `{"type":"ping"}`:
			c.pong()
			return true
		}
	}
	var m wsMessage
	if op != ws.OpText || !decodeMessage(data, &m) {
		c.close(wsBadRequest, "Invalid message received")
		return true
	}
	switch m.Type {
	case "connection_init":
		if c.inited {
			c.close(wsTooManyInitRequests, "Too many initialisation requests")
			return true
		}
		c.inited = true
		c.init(m.Payload)
	case "ping":
		c.pong()
	case "pong":
	case "subscribe":
		if !c.acked.Load() {
			c.close(wsUnauthorized, "Unauthorized")
			return true
		}
		if m.ID == "" || len(m.Payload) == 0 {
			c.close(wsBadRequest, "Invalid message received")
			return true
		}
		c.subscribe(m.ID, m.Payload)
	case "complete":
		// The id is free again at once, though the operation may still
		// be finishing.
		c.mu.Lock()
		sub := c.find(m.ID)
		if sub != nil {
			sub.completed.Store(true)
			sub.stop(errClientComplete)
			c.remove(sub)
		}
		c.mu.Unlock()
		if sub != nil {
			// A frame of the operation being written is let finish:
			// the messages that answer what the client sends next (the
			// same id, used again) come after it, and none follows.
			c.wmu.Lock()
			c.wmu.Unlock()
		}
	default:
		c.close(wsBadRequest, "Invalid message received")
	}
	return true
}

// Messages the connection sends, as whole frames.
var (
	frameAck  = textFrame(`{"type":"connection_ack"}`)
	framePing = textFrame(`{"type":"ping"}`)
	framePong = textFrame(`{"type":"pong"}`)
)

// textFrame returns msg as a final text frame.
func textFrame(msg string) []byte {
	f := &frame{b: append(make([]byte, frameHead), msg...)}
	return f.bytes(ws.OpText)
}

// init runs the OnConnect hook and acknowledges the connection.
func (c *wsConn) init(payload json.RawMessage) {
	if p := bytes.TrimLeft(payload, " \t\r\n"); len(p) > 0 && p[0] != '{' && string(p) != "null" {
		// The payload is an object, null or absent; the message is
		// valid JSON, so its first byte tells.
		c.close(wsBadRequest, "Invalid message received")
		return
	}
	if hook := c.s.cfg.OnConnect; hook != nil {
		var p map[string]any
		if len(payload) > 0 && string(payload) != "null" {
			if json.Unmarshal(payload, &p) != nil {
				c.close(wsBadRequest, "Invalid message received")
				return
			}
		}
		octx, err := hook(c.ctx, p)
		if err != nil {
			c.close(wsForbidden, "Forbidden")
			return
		}
		if octx != nil {
			c.ctx = octx
		}
	}
	// acked is set after the ack is written, so no ping precedes it.
	c.writeFrame(frameAck)
	c.acked.Store(true)
	s := c.s
	s.inits.Remove(c, c.initTicket.Load())
	if s.cfg.KeepAlive > 0 {
		c.pingTicket.Store(s.pings.Add(c))
	}
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
	if c.ended.Load() || c.closing.Load() {
		return
	}
	c.pingTicket.Store(c.s.pings.Add(c))
	// The ping goes out with the connection's delivery, started as for
	// an event: nothing is allocated per ping.
	c.mu.Lock()
	c.pingDue = true
	c.wakeLocked()
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
		c.close(ws.StatusGoingAway, "Server shutting down")
	}
}

// subscribe starts operation id.
func (c *wsConn) subscribe(id string, payload json.RawMessage) {
	c.mu.Lock()
	if c.find(id) != nil {
		c.mu.Unlock()
		c.close(wsSubscriberExists, "Subscriber for "+id+" already exists")
		return
	}
	b, _ := json.Marshal(id)
	idJSON := string(b)
	select {
	case <-c.s.hub.Closing():
		// No operation starts once shutdown has begun.
		c.mu.Unlock()
		c.sendErrors(nil, idJSON, errorsBody(gqlerr.New(gqlerr.ShuttingDown, "The server is shutting down")))
		return
	default:
	}
	if len(c.subs) >= c.s.cfg.MaxSubscriptionsPerConnection || !c.s.hub.AcquireSub() {
		c.mu.Unlock()
		c.sendErrors(nil, idJSON, errorsBody(gqlerr.New(gqlerr.TooManySubscriptions, "Too many subscriptions: complete one first")))
		return
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
}

// markStarted closes sub.started and lets go of the channel.
func (c *wsConn) markStarted(sub *wsSub) {
	c.mu.Lock()
	close(sub.started)
	sub.started = closedChan
	c.mu.Unlock()
}

// pong answers a ping once every operation received before it has
// started (a subscription's source stream is open), so that a client can
// send subscribe then ping and know, at the pong, that the subscription
// is registered: events published after it reach the subscriber.
//
// The pings that wait are counted, and one goroutine of the connection
// waits for them however many the client sends.
func (c *wsConn) pong() {
	c.mu.Lock()
	if c.pongWaits {
		c.pongsDue++
		c.mu.Unlock()
		return
	}
	waits := c.notStarted()
	if len(waits) == 0 {
		c.mu.Unlock()
		c.writeFrame(framePong)
		return
	}
	c.pongWaits, c.pongsDue = true, 1
	c.mu.Unlock()
	go c.pongLater(waits)
}

// pongLater answers the pings counted once the operations of waits, and
// any received since, have started.
func (c *wsConn) pongLater(waits []chan struct{}) {
	for {
		for _, w := range waits {
			<-w
		}
		c.mu.Lock()
		if waits = c.notStarted(); len(waits) > 0 {
			c.mu.Unlock()
			continue
		}
		n := c.pongsDue
		c.pongWaits, c.pongsDue = false, 0
		c.mu.Unlock()
		for range n {
			if !c.writeFrame(framePong) {
				return
			}
		}
		return
	}
}

// notStarted returns the started channels of the operations that have
// not started; c.mu is held.
func (c *wsConn) notStarted() []chan struct{} {
	var waits []chan struct{}
	for _, sub := range c.subs {
		if sub.started != closedChan {
			waits = append(waits, sub.started)
		}
	}
	return waits
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
		c.markStarted(sub)
		c.sendErrors(sub, id, errorsBody(e.Err))
		return false
	}
	// A query or mutation counts toward the router's in-flight bound, as
	// over HTTP, until its answer is written; a subscription only while
	// it starts.
	if err := c.s.p.Enter(); err != nil {
		c.markStarted(sub)
		c.sendErrors(sub, id, errorsBody(err))
		return false
	}
	raw := &httpapi.RawRequest{Method: http.MethodGet, Header: c.header, Remote: c.remote}
	op := c.s.p.Run(sctx, &req, raw)
	c.markStarted(sub)
	if op.Streaming() {
		c.s.p.Leave()
	} else {
		defer c.s.p.Leave()
	}
	switch {
	case !op.Streaming() && op.Response().Status != http.StatusOK:
		// A request error: one error message, no complete.
		c.sendErrors(sub, id, op.Response().Body)
		return false
	case !op.Streaming():
		c.sendNext(sub, op.Response().Body)
	default:
		sub.op, sub.sctx = op, sctx
		if fd, ok := op.(transport.FramedDrainer); ok {
			sub.framed = fd
			if len(id) <= sharedIDMax {
				sub.fkey = frameKey{unique.Make(id)}
			}
		}
		if op.Watch(transport.NotifyFunc(func() { c.schedule(sub) })) {
			return true
		}
		_ = op.Pump(func(body []byte) error {
			if !c.sendNext(sub, body) {
				return errNotStream
			}
			return nil
		})
	}
	c.complete(sctx, sub)
	return false
}

// complete sends the complete message of a subscription that ended,
// unless the client asked for the end or the connection is gone.
func (c *wsConn) complete(sctx context.Context, sub *wsSub) {
	if cause := context.Cause(sctx); cause == errClientComplete || (cause != nil && cause != errShutdown) {
		return
	}
	f := getFrame()
	f.b = appendMessage(f.b, sub.id, "complete", nil)
	c.writeFrameOf(sub, f.bytes(ws.OpText))
	f.put()
}

// schedule queues sub for the connection's delivery, scheduling it on
// the hub's workers when it is not already. It is called by sub's
// source, which it must not block. It allocates nothing.
func (c *wsConn) schedule(sub *wsSub) {
	c.mu.Lock()
	if !sub.queued {
		sub.queued = true
		if c.tail == nil {
			c.head.Store(sub)
		} else {
			c.tail.nextQueued = sub
		}
		c.tail = sub
	}
	c.wakeLocked()
}

// wakeLocked unlocks c.mu, held by the caller, who left the delivery
// something to do (an event queued, a ping due), and starts the delivery
// unless it runs already.
func (c *wsConn) wakeLocked() {
	start := !c.draining
	c.draining = true
	c.mu.Unlock()
	if start {
		c.startDelivery()
	}
}

// startDelivery runs the connection's delivery: on the hub's workers
// for a plain socket, which it writes without waiting; on a goroutine
// of its own for any other (TLS), whose writes wait.
func (c *wsConn) startDelivery() {
	if c.hasRaw {
		c.s.hub.Schedule(c)
	} else {
		go c.deliver(true)
	}
}

// Fan-out: an event makes the connections of every subscriber ready at
// once. Each connection's delivery runs on one of the hub's few workers
// (transport.Task) and writes each frame with one system call that does not
// wait (transport.RawWriter), with no goroutine, deadline or buffer of
// its own; the frame of a push subscription's event, {"id":…,"type":
// "next","payload":…} with its header, is built once per event and id
// and shared by every subscriber with that id (transport.FramedDrainer).
// A client that does not take a frame whole holds the connection's
// writes until the rest is written by a goroutine of the delivery's own,
// within the write timeout, which then delivers on: a slow client never
// holds a worker.

// Run delivers on one of the hub's workers (transport.Task).
func (c *wsConn) Run() { c.deliver(false) }

// Prefetch asks for what the delivery reads (transport.Prefetcher): the
// connection's first lines, then its first queued subscription's, then
// that one's operation's and what the operation points to. The
// subscription's operation is set before it is watched.
func (c *wsConn) Prefetch(level int) {
	if level == 0 {
		prefetch.Lines(unsafe.Pointer(c), 2)
		return
	}
	sub := c.head.Load()
	switch {
	case sub == nil:
	case level == 1:
		prefetch.Lines(unsafe.Pointer(sub), 2)
	case sub.framed != nil:
		sub.framed.Prefetch(level - 2)
	}
}

// deliver writes a ping that is due and the events of the queued
// subscriptions, until none waits, and completes and releases the
// subscriptions whose stream ended. wait says it runs on a goroutine of
// its own, whose writes wait within the write timeout; otherwise it runs
// on a worker, and goes on on a new goroutine when a write could not
// complete at once. Only one delivery of a connection runs at a time
// (draining).
func (c *wsConn) deliver(wait bool) {
	c.waiting = wait
	if wait {
		if c.rest != nil {
			c.writeRest()
		} else {
			// The write deadline is moved here, where the goroutine's
			// stack is shallow: moving it deep in a write (a runtime
			// timer change) would grow the stack.
			c.wmu.Lock()
			c.bound()
			c.wmu.Unlock()
		}
	}
	for {
		sub := c.cur
		c.cur = nil
		if sub == nil {
			c.mu.Lock()
			if c.pingDue {
				c.pingDue = false
				c.mu.Unlock()
				if wait {
					c.writeFrame(framePing)
				} else if c.tryWrite(nil, framePing, 0) == transport.ErrPause {
					go c.deliver(true)
					return
				}
				continue
			}
			sub = c.head.Load()
			if sub == nil {
				c.draining = false
				c.mu.Unlock()
				return
			}
			next := sub.nextQueued
			c.head.Store(next)
			sub.nextQueued = nil
			if next == nil {
				c.tail = nil
			}
			sub.queued = false
			c.mu.Unlock()
		}
		if sub.done {
			continue
		}
		c.dsub = sub
		var ended bool
		if sub.framed != nil {
			ended = sub.framed.DrainFramed(sub.fkey, c)
		} else {
			ended = sub.op.Drain(c.send)
		}
		c.dsub = nil
		if c.rest != nil {
			// The client is behind: sub's delivery goes on after the
			// rest, on a goroutine that may wait.
			c.cur = sub
			go c.deliver(true)
			return
		}
		if ended {
			sub.done = true
			if wait {
				c.finish(sub)
			} else {
				go c.finish(sub) // its complete may wait for the client
			}
		}
	}
}

// finish completes and releases sub, whose stream ended.
func (c *wsConn) finish(sub *wsSub) {
	c.complete(sub.sctx, sub)
	c.release(sub)
}

// writeRest writes what a write that could not wait left, within the
// write timeout, and gives back the bytes it held. A failure fails the
// subscription it was an event of.
func (c *wsConn) writeRest() {
	partial := c.restLocked
	if !partial {
		c.wmu.Lock()
	}
	c.restLocked = false
	// A part of a frame holds the writes (restLocked), so the close
	// frame cannot have been sent after it. A whole frame of an
	// operation the client completed is dropped.
	ok := !c.closing.Load()
	if ok && (partial || c.cur == nil || !c.cur.completed.Load()) {
		c.bound()
		_, err := c.conn.Write(c.rest)
		ok = err == nil
	}
	c.wmu.Unlock()
	c.s.p.Release(&c.held, c.restHeld)
	c.rest, c.restHeld = nil, 0
	if !ok {
		c.closeSocket()
		if sub := c.cur; sub != nil {
			sub.failed = true
			sub.stop(errNotStream)
		}
	}
}

// Frame frames payload, an event of the subscription being delivered, as
// its next message (transport.Framing): the same bytes for the same id.
func (c *wsConn) Frame(dst, payload []byte) []byte {
	return appendNextFrame(dst, c.dsub.id, payload)
}

// Send writes an event of the subscription being delivered
// (transport.Framing): its whole frame when it has a framing key, else
// its payload, framed here. After a failure, what waits is dropped.
func (c *wsConn) Send(b []byte) error {
	sub := c.dsub
	if sub.failed {
		return errNotStream
	}
	err := c.sendEvent(sub, b)
	if err != nil && err != transport.ErrPause {
		// The connection is closing; the end of sub's context ends its
		// stream and schedules it again.
		sub.failed = true
		sub.stop(errNotStream)
	}
	return err
}

// sendEvent writes one event of sub, held in the router's budget and in
// the connection's share until written; the SERVER_BUSY answer goes in
// its place when they cannot hold it. On a worker, the write does not
// wait: what the client cannot take at once is kept, still held, and
// sendEvent returns transport.ErrPause.
func (c *wsConn) sendEvent(sub *wsSub, b []byte) error {
	send, held := c.s.p.Hold(&c.held, b)
	busy := len(send) != len(b) || len(send) > 0 && &send[0] != &b[0]
	out := send
	var f *frame
	if sub.fkey == nil || busy {
		f = getFrame()
		f.b = appendMessage(f.b, sub.id, "next", send)
		out = f.bytes(ws.OpText)
	}
	var err error
	if c.waiting {
		if !c.writeFrameOf(sub, out) {
			err = errNotStream
		}
		c.s.p.Release(&c.held, held)
	} else {
		err = c.tryWrite(sub, out, held)
	}
	if f != nil {
		f.put()
	}
	return err
}

// tryWrite writes frame, of sub's (nil: of none), held is bytes in the
// budget, without waiting; a frame of an operation the client completed
// is dropped.
// What the socket does not take at once is kept in rest, held, and it
// returns transport.ErrPause; a part of the frame written holds the
// writes (restLocked) until the rest follows it.
func (c *wsConn) tryWrite(sub *wsSub, frame []byte, held int) error {
	if c.ended.Load() {
		c.s.p.Release(&c.held, held)
		return errNotStream
	}
	if !c.wmu.TryLock() {
		// Another write is under way: the delivery goes on after it.
		c.rest, c.restHeld = append(c.rest[:0], frame...), held
		return transport.ErrPause
	}
	if c.closing.Load() || sub != nil && sub.completed.Load() {
		c.wmu.Unlock()
		c.s.p.Release(&c.held, held)
		return errNotStream
	}
	if c.until.Load() != 0 {
		// A write that waited left its deadline, which would fail this
		// write once passed: it is cleared, once per such write.
		_ = c.conn.SetWriteDeadline(time.Time{})
		c.until.Store(0)
	}
	n, err := c.raw.TryWrite(frame)
	if err == nil && n < len(frame) {
		c.rest, c.restHeld = append(c.rest[:0], frame[n:]...), held
		if n > 0 {
			c.restLocked = true
			return transport.ErrPause
		}
		c.wmu.Unlock()
		return transport.ErrPause
	}
	c.wmu.Unlock()
	c.s.p.Release(&c.held, held)
	if err != nil {
		c.closeSocket()
		return errNotStream
	}
	return nil
}

// sendNext sends a next message of operation id whose payload is body,
// held in the router's budget and in the connection's share while it
// is written; the SERVER_BUSY answer goes in its place when they cannot
// hold it. The message is built in a pooled buffer after the room for
// its header and written in one write.
func (c *wsConn) sendNext(sub *wsSub, body []byte) bool {
	p := c.s.p
	body, held := p.Hold(&c.held, body)
	var ok bool
	if len(body) >= smallAnswer {
		ok = c.sendLarge(sub, body)
	} else {
		f := getFrame()
		f.b = appendMessage(f.b, sub.id, "next", body)
		ok = c.writeFrameOf(sub, f.bytes(ws.OpText))
		f.put()
	}
	p.Release(&c.held, held)
	return ok
}

// sendLarge writes a next message with a large payload as it is, the
// header and the message around it, in one writev.
func (c *wsConn) sendLarge(sub *wsSub, body []byte) bool {
	prefix := append(append([]byte(`{"id":`), sub.id...), `,"type":"next","payload":`...)
	return c.writeBuffers(sub, buffers(ws.OpText, prefix, body, []byte("}")))
}

// sendErrors sends an error message whose payload is the errors array of
// body, a {"errors":[...]} response.
func (c *wsConn) sendErrors(sub *wsSub, id string, body []byte) {
	var resp struct {
		Errors json.RawMessage `json:"errors"`
	}
	if json.Unmarshal(body, &resp) != nil || len(resp.Errors) == 0 {
		resp.Errors = json.RawMessage(`[{"message":"Internal server error","extensions":{"code":"INTERNAL_SERVER_ERROR"}}]`)
	}
	f := getFrame()
	f.b = appendMessage(f.b, id, "error", resp.Errors)
	c.writeFrameOf(sub, f.bytes(ws.OpText))
	f.put()
}

// smallAnswer is the size from which a payload is written as it is,
// framed around it, rather than copied into a message.
const smallAnswer = 64 << 10

// appendMessage appends {"id":id,"type":typ,"payload":payload} to b.
func appendMessage(b []byte, id, typ string, payload []byte) []byte {
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

// writeFrame writes one frame in one write within the write timeout; a
// consumer too slow for it loses the connection. It reports whether the
// write succeeded. Nothing is written once the close frame was sent.
func (c *wsConn) writeFrame(b []byte) bool { return c.writeFrameOf(nil, b) }

// writeFrameOf is writeFrame for a frame of sub's (nil: of none): the
// frame of an operation the client completed is dropped, and reported
// written.
func (c *wsConn) writeFrameOf(sub *wsSub, b []byte) bool {
	if c.ended.Load() {
		return false
	}
	c.wmu.Lock()
	if c.closing.Load() {
		c.wmu.Unlock()
		return false
	}
	if sub != nil && sub.completed.Load() {
		c.wmu.Unlock()
		return true
	}
	c.bound()
	_, err := c.conn.Write(b)
	c.wmu.Unlock()
	if err != nil {
		c.closeSocket()
		return false
	}
	return true
}

// writeBuffers writes a large frame in parts, as writeFrame does.
func (c *wsConn) writeBuffers(sub *wsSub, bufs net.Buffers) bool {
	if c.ended.Load() {
		return false
	}
	c.wmu.Lock()
	if c.closing.Load() {
		c.wmu.Unlock()
		return false
	}
	if sub.completed.Load() {
		c.wmu.Unlock()
		return true
	}
	c.bound()
	_, err := bufs.WriteTo(c.conn)
	c.wmu.Unlock()
	if err != nil {
		c.closeSocket()
		return false
	}
	return true
}

// writeControl writes a control frame with payload p (a pong), unless
// the close frame was sent.
func (c *wsConn) writeControl(op ws.OpCode, p []byte) {
	f := getFrame()
	f.b = append(f.b, p...)
	c.writeFrame(f.bytes(op))
	f.put()
}

// bound keeps the write deadline at least 7/8 of the write timeout away.
// It is moved forward only when less than that is left, rather than set
// and cleared around every write (two runtime timer changes), so a write
// may fail after between 7/8 of the timeout and the timeout. c.wmu is
// held.
func (c *wsConn) bound() {
	timeout := c.s.cfg.WriteTimeout
	if timeout <= 0 {
		return
	}
	now := time.Now()
	if c.until.Load()-now.UnixNano() < int64(timeout-timeout/8) {
		dl := now.Add(timeout)
		_ = c.conn.SetWriteDeadline(dl)
		c.until.Store(dl.UnixNano())
	}
}

// close starts the close handshake with a protocol close code: it sends
// the close frame, after which nothing more is sent, and the reader
// reads on until the client's close frame, or the socket is closed
// closeTimeout later.
//
// The reason (one may name a client's id) is cut to what a close frame
// holds, 123 bytes, on a character boundary: a reason that is not UTF-8
// would fail the client's connection with a protocol error.
func (c *wsConn) close(code ws.StatusCode, reason string) {
	c.closeWith(ws.NewCloseFrameBody(code, clip.Prefix(reason, ws.MaxControlFramePayloadSize-2)), true)
}

// closeWith sends the close frame whose payload is p, once, and when wait
// is set closes the socket closeTimeout later.
func (c *wsConn) closeWith(p []byte, wait bool) {
	c.wmu.Lock()
	if c.closing.Load() {
		c.wmu.Unlock()
		return
	}
	c.closing.Store(true)
	f := getFrame()
	f.b = append(f.b, p...)
	c.bound()
	_, err := c.conn.Write(f.bytes(ws.OpClose))
	f.put()
	c.wmu.Unlock()
	if err != nil {
		c.closeSocket()
		return
	}
	if wait {
		time.AfterFunc(closeTimeout, c.closeSocket)
	}
}
