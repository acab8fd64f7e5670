package graft

import (
	"context"
	"net/http"
	"sync"
	"time"
	"unsafe"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/internal/httpapi"
	"github.com/graftgql/graft/internal/prefetch"
	"github.com/graftgql/graft/internal/transport"
)

// Defaults of SubscriptionConfig, applied to zero fields.
const (
	DefaultKeepAlive                 = 12 * time.Second
	DefaultInitTimeout               = 3 * time.Second
	DefaultStreamWriteTimeout        = 10 * time.Second
	DefaultMaxConnections            = 10_000
	DefaultMaxSubscriptionsPerConn   = 100
	DefaultMaxSubscriptions          = 100_000
	DefaultStreamBufferBytes         = 1 << 20
	DefaultMaxReservations           = 1_000
	DefaultMaxReservationsPerAddress = 10
)

// SubscriptionConfig configures the streaming transports served on the
// GraphQL path: WebSocket (graphql-transport-ws), Server-Sent Events
// (graphql-sse) and multipart HTTP. Queries and mutations run over them
// too. Every zero field takes its default.
type SubscriptionConfig struct {
	// OnConnect receives the payload of a WebSocket connection_init
	// message, after Config.Auth accepted the upgrade request. It may
	// return a context carrying the user; an error closes the socket with
	// 4403 Forbidden.
	OnConnect func(ctx context.Context, payload map[string]any) (context.Context, error)
	// KeepAlive is the interval of WebSocket pings, SSE keep-alive comments
	// and multipart heartbeats. Default 12s; negative turns them off.
	KeepAlive time.Duration
	// InitTimeout bounds the wait for a WebSocket connection_init; then
	// the socket closes with 4408. Default 3s.
	InitTimeout time.Duration
	// WriteTimeout bounds one write to a client. A consumer too slow to
	// take an event within it is disconnected, and the events waiting for
	// it are bounded by the publish/subscribe buffer behind the resolver,
	// so a slow client never makes the server hold unbounded memory.
	// Default 10s.
	WriteTimeout time.Duration
	// StreamBufferBytes bounds the bytes of the events waiting for one
	// single-connection SSE stream (which also holds at most 256 events;
	// a stream further behind is a slow consumer and is disconnected), and
	// of the messages waiting for one WebSocket beyond the first (one
	// more is answered SERVER_BUSY in its place). Everything the streams
	// hold also counts toward Config.MaxBufferedBytes. Default 1 MiB. The publish/subscribe service bounds what waits for
	// each of its subscribers by its own options (pubsub.Options).
	StreamBufferBytes int
	// MaxConnections bounds WebSocket connections and event streams
	// together. Default 10,000; beyond it the request answers 503.
	MaxConnections int
	// MaxSubscriptionsPerConnection bounds the operations running on one
	// WebSocket or single-connection SSE stream. Default 100.
	MaxSubscriptionsPerConnection int
	// MaxSubscriptions bounds the subscriptions running on the router.
	// Default 100,000.
	MaxSubscriptions int
	// MaxReservations bounds the single-connection SSE streams reserved
	// (PUT) and not yet connected, and MaxReservationsPerAddress those of
	// one client address. A reservation holds no socket: it counts toward
	// MaxConnections only once its stream connects, so reservations never
	// take the place of open connections. Defaults 1,000 and 10; past
	// them a reservation is answered 503 with Retry-After.
	MaxReservations           int
	MaxReservationsPerAddress int
	// OriginPatterns lists the host patterns (path.Match syntax, for
	// example "*.example.com") from which browsers may open a WebSocket.
	// Empty allows only the server's own host; clients that send no Origin
	// (non-browser clients) are always allowed. With Config.CSRF set, an
	// upgrade from another origin that carries cookies is refused (403
	// CSRF_PREVENTION_BLOCKED) unless a pattern names its host (or
	// origin) exactly: a pattern with a wildcard never admits it.
	OriginPatterns []string
}

func (c SubscriptionConfig) withDefaults() SubscriptionConfig {
	if c.KeepAlive == 0 {
		c.KeepAlive = DefaultKeepAlive
	}
	if c.InitTimeout <= 0 {
		c.InitTimeout = DefaultInitTimeout
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = DefaultStreamWriteTimeout
	}
	if c.StreamBufferBytes <= 0 {
		c.StreamBufferBytes = DefaultStreamBufferBytes
	}
	if c.MaxConnections <= 0 {
		c.MaxConnections = DefaultMaxConnections
	}
	if c.MaxSubscriptionsPerConnection <= 0 {
		c.MaxSubscriptionsPerConnection = DefaultMaxSubscriptionsPerConn
	}
	if c.MaxSubscriptions <= 0 {
		c.MaxSubscriptions = DefaultMaxSubscriptions
	}
	if c.MaxReservations <= 0 {
		c.MaxReservations = DefaultMaxReservations
	}
	if c.MaxReservationsPerAddress <= 0 {
		c.MaxReservationsPerAddress = DefaultMaxReservationsPerAddress
	}
	return c
}

// hub is the router's transport.Hub (connections, subscriptions, bounds,
// shutdown) with the configuration of its transports.
type hub struct {
	*transport.Hub
	cfg SubscriptionConfig
}

func newHub(cfg SubscriptionConfig) *hub {
	cfg = cfg.withDefaults()
	return &hub{Hub: transport.NewHub(cfg.MaxConnections, cfg.MaxSubscriptions), cfg: cfg}
}

// CloseSubscriptions completes every running subscription and closes
// every WebSocket (1001 Going Away) and event stream, and refuses new
// ones. Serve calls it when shutdown begins; a server built by hand calls
// it from http.Server.RegisterOnShutdown, since http.Server.Shutdown does
// not wait for hijacked connections and would wait out its grace period
// for open streams.
func (r *Router) CloseSubscriptions() { r.subs.Close() }

// streamSink is put in the context of a request that came over a
// streaming transport: the pipeline starts a subscription into it
// instead of refusing it.
type streamSink struct {
	// feed is the running stream's queue and shared answers, read with
	// plain and observed by every event's delivery: they lead the
	// operation, in its first cache line, so that delivering an event
	// whose answer is shared reads no other line of it nor the stream.
	feed exec.Feed
	// plain says no hook observes payloads (PhasePayload): subscribers
	// of one selection may share an event's answer. observed says a hook
	// observes the request (st.ph is set).
	plain, observed bool
	stream          *exec.Stream
	ctx             context.Context // the subscription's context, with request state
	// format is the incremental delivery format the transport speaks (0:
	// none, @defer and @stream are then answered as if absent); inc and
	// incEnd are the running delivery and the end of its timeout
	// (incremental.go).
	format exec.Format
	inc    *exec.Incremental
	incEnd context.CancelFunc
}

type streamKey struct{}

func sinkFrom(ctx context.Context) *streamSink {
	s, _ := ctx.Value(streamKey{}).(*streamSink)
	return s
}

// startSubscription is the pipeline's last step for a subscription: it
// starts the source stream into the request's sink, or answers the
// errors that kept it from starting.
func (r *Router) startSubscription(ctx context.Context, op *exec.Operation, vars map[string]any, resp *httpapi.Response) {
	sink := sinkFrom(ctx)
	var errs *[]*gqlerror.Error
	if stateFrom(ctx).ph != nil {
		errs = resp.ErrorSink()
	}
	s, body := r.engine.SubscribeReporting(ctx, op, vars, resp.Body[:0], errs)
	resp.Status = http.StatusOK
	resp.ContentType = httpapi.ContentTypeGraphQLResponse
	resp.Body = body
	if s != nil {
		sink.stream, sink.ctx, sink.feed = s, ctx, s.Feed()
	}
}

// operation is one GraphQL request run over a streaming transport: either
// a running subscription (stream) or a single response. It entered the
// pipeline through the door; it leaves (end) once its answer is complete:
// at once for a single response, when its stream ends for a subscription.
type operation struct {
	// streamSink is where the pipeline leaves the running stream (stream,
	// ctx) or incremental delivery (inc, whose initial payload is the
	// answer's Body; incEnd ends its timeout): allocated with the
	// operation, as its request state is. It comes first (see feed).
	streamSink
	r  *Router
	st *requestState
	// state is st's storage; its answer is the operation's.
	state requestState
}

// newOperation returns an operation of r whose sink speaks format.
func (r *Router) newOperation(format exec.Format) *operation {
	op := &operation{r: r}
	op.st = &op.state
	op.format = format
	return op
}

// end passes op out through the door, once: the hooks' PhaseAnswered and
// the access log see its final answer.
func (op *operation) end() {
	op.r.leave(op.st, &op.state.answer)
}

// abandon ends an operation whose stream a transport cannot serve (a
// bound reached after it started): its answer becomes e.
func (op *operation) abandon(e *httpapi.Error) {
	op.r.fail(&op.state.answer, httpapi.ContentTypeGraphQLResponse, e)
	op.stream, op.feed = nil, exec.Feed{}
	if op.inc != nil {
		op.endIncremental()
		op.inc = nil
	}
	op.end()
}

// start runs req, an operation sent over a connection (WebSocket) whose
// upgrade request raw describes, through the door and the pipeline
// (persisted queries, the document cache, validation, variables, limits)
// with ctx, which the caller cancels to end a subscription. @defer and
// @stream are delivered incrementally in the graphql-js 17 format.
func (r *Router) start(ctx context.Context, req *httpapi.Request, raw *httpapi.RawRequest) *operation {
	op := r.newOperation(exec.FormatCurrent)
	ctx = r.enter(context.WithValue(ctx, streamKey{}, &op.streamSink), op.st, raw, &op.state.answer)
	func() {
		defer r.containPanic(ctx, &op.state.answer, httpapi.ContentTypeGraphQLResponse)
		r.run(ctx, op.st, req, httpapi.MediaGraphQLResponse, &op.state.answer)
	}()
	op.observed = op.st.ph != nil
	op.plain = !op.observed || !r.payloadsObserved()
	if op.stream == nil && op.inc == nil {
		op.end()
	}
	return op
}

// startRaw is start for a request that came over HTTP: CSRF prevention,
// the Auth hook and request decoding run first, as for every request. Its
// answers take the media type raw.Accept negotiates (the caller sets it:
// httpstream.Serve keeps the client's when it accepts JSON). format is the
// incremental delivery format of the transport (0: none).
func (r *Router) startRaw(ctx context.Context, raw *httpapi.RawRequest, format exec.Format) *operation {
	op := r.newOperation(format)
	r.serveWith(context.WithValue(ctx, streamKey{}, &op.streamSink), raw, &op.state.answer, op.st)
	op.observed = op.st.ph != nil
	op.plain = !op.observed || !r.payloadsObserved()
	if op.stream == nil && op.inc == nil {
		op.end()
	}
	return op
}

// Response, Streaming, Pump and Abandon make op a transport.Operation.
func (op *operation) Response() *httpapi.Response { return &op.state.answer }

// Streaming reports whether op is a running subscription or incremental
// delivery.
func (op *operation) Streaming() bool { return op.stream != nil || op.inc != nil }

// Pump is the router's pump of op.
func (op *operation) Pump(send func([]byte) error) error { return op.r.pump(op, send) }

// Abandon ends op with e as its answer.
func (op *operation) Abandon(e *httpapi.Error) { op.abandon(e) }

var _ transport.FramedDrainer = (*operation)(nil)

// Watch registers notify with the queue of a push subscription.
func (op *operation) Watch(notify transport.Notifier) bool {
	if op.stream == nil {
		return false // an incremental delivery: Pump sends it
	}
	q := op.stream.Queue()
	if q == nil {
		return false
	}
	q.Watch(notify)
	return true
}

// Drain executes the events waiting in op's queue through the hooks'
// PhasePayload and hands each to send, dropping the rest once send
// fails; once the stream has ended, op leaves the door. send returning
// transport.ErrPause stops the drain and leaves the rest waiting.
func (op *operation) Drain(send func([]byte) error) bool {
	return op.drain(nil, plainFraming(send))
}

// DrainFramed is Drain handing f.Send each payload framed by f.Frame; an
// answer shared by the subscribers of one selection is framed once per
// key (transport.FramedDrainer).
func (op *operation) DrainFramed(key any, f transport.Framing) bool {
	return op.drain(key, f)
}

// Prefetch asks for what drain reads (transport.Prefetcher): at level 0
// the operation's first line (feed, plain, observed), at 1 its queue's
// line. The feed is set before the stream is watched, and changes only
// before (abandon).
func (op *operation) Prefetch(level int) {
	switch level {
	case 0:
		prefetch.Line(unsafe.Pointer(op))
	case 1:
		if q := op.feed.Queue(); q != nil {
			prefetch.Line(unsafe.Pointer(q))
		}
	}
}

// plainFraming sends payloads as they are.
type plainFraming func([]byte) error

func (plainFraming) Frame(dst, payload []byte) []byte { return payload }
func (f plainFraming) Send(b []byte) error            { return f(b) }

// drainBufs holds the buffers events are executed and framed in while a
// stream drains: an idle stream holds none.
var drainBufs = sync.Pool{New: func() any { return new([2][]byte) }}

func (op *operation) drain(key any, f transport.Framing) bool {
	q := op.feed.Queue()
	var bufs *[2][]byte
	defer func() {
		if bufs != nil && cap(bufs[0])+cap(bufs[1]) <= 128<<10 {
			drainBufs.Put(bufs)
		}
	}()
	failed := false
	for {
		ev, ok, ended := q.TryNext()
		if !ok {
			if ended {
				op.end()
			}
			return ended
		}
		if failed {
			continue
		}
		var out []byte
		if key != nil && op.plain {
			out, ok = op.feed.SharedFrame(ev, key, f.Frame)
			if ok {
				op.shared()
			}
		} else {
			ok = false
		}
		if !ok {
			if bufs == nil {
				bufs = drainBufs.Get().(*[2][]byte)
			}
			bufs[0] = op.executeEvent(ev, bufs[0][:0])
			out = bufs[0]
			if key != nil {
				bufs[1] = f.Frame(bufs[1][:0], out)
				out = bufs[1]
			}
		}
		switch err := f.Send(out); err {
		case nil:
		case transport.ErrPause:
			return false
		default:
			failed = true
		}
	}
}

// pump executes each event of op's stream and hands the response to send,
// until the stream ends, send fails or the stream's context is done; then
// op leaves through the door. Each event passes the hooks' PhasePayload.
func (r *Router) pump(op *operation, send func(body []byte) error) error {
	defer op.end()
	if op.inc != nil {
		return r.pumpIncremental(op, send) // incremental.go
	}
	var buf []byte
	for {
		ev, ok := op.stream.Next(op.ctx)
		if !ok {
			return op.ctx.Err()
		}
		buf = op.executeEvent(ev, buf[:0])
		if err := send(buf); err != nil {
			return err
		}
	}
}

// executeEvent executes one event of op's subscription into buf, within
// Config.Timeout, through the hooks' PhasePayload. When no hook observes
// payloads, an answer another subscriber's execution left is copied
// instead, with no execution context to set up.
func (op *operation) executeEvent(ev unsafe.Pointer, buf []byte) []byte {
	r, s, sctx, ph := op.r, op.stream, op.ctx, op.st.ph
	if op.plain {
		if out, ok := s.Shared(ev, buf); ok {
			op.shared()
			return out
		}
	}
	pctx, e := ph.beginPayload(sctx)
	if e != nil {
		ph.endPayload(sctx, []*gqlerror.Error{e.Err})
		return appendErrors(buf, e.Err)
	}
	ectx, cancel := context.WithTimeout(pctx, r.cfg.Timeout)
	defer cancel()
	if ph == nil {
		return s.Execute(ectx, ev, buf)
	}
	var errs []*gqlerror.Error
	buf = s.ExecuteReporting(ectx, ev, buf, &errs)
	ph.endPayload(sctx, errs)
	return buf
}

// shared notes a payload of op delivered from a shared answer: hooks
// that observe the request, though not its payloads, see in
// PhaseAnswered that it was streamed.
func (op *operation) shared() {
	if op.observed {
		op.st.ph.ev.streamed = true
	}
}

// payloadsObserved reports whether a hook observes PhasePayload.
func (r *Router) payloadsObserved() bool {
	for i := range r.hooks {
		if i >= len(r.hookMasks) || r.hookMasks[i].has(PhasePayload) {
			return true
		}
	}
	return false
}

// serveStream serves the streaming transports on the GraphQL path and
// reports whether req was one of theirs: a WebSocket upgrade, a request of
// graphql-sse's single connection mode, or a streamed HTTP answer (an
// event stream, a multipart subscription: package httpstream).
func (r *Router) serveStream(w http.ResponseWriter, req *http.Request) bool {
	for _, u := range r.units {
		if u.Match(req) {
			u.ServeHTTP(w, req)
			return true
		}
	}
	return false
}

// Why a subscription's context was cancelled.
var (
	// errNotStream: the client is gone (a send failed).
	errNotStream = transport.ErrClientGone
	// errShutdown: the server is shutting down.
	errShutdown = transport.ErrShutdown
)
