// Package otlpspans exports sampled spans over OTLP/HTTP in protobuf:
// a span processor that encodes each span as it ends into a batch of
// bytes, and posts the batch to the collector on an interval. What it
// holds between exports is those bytes, which the garbage collector does
// not scan, where the SDK's batch processor and exporter hold every span
// and convert a batch into protobuf messages to marshal them.
package otlpspans

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"google.golang.org/protobuf/encoding/protowire"
)

// Config configures a Processor.
type Config struct {
	// URL is where batches are posted (the collector's /v1/traces).
	URL string
	// Headers are added to every export.
	Headers map[string]string
	// Gzip compresses the batches.
	Gzip bool
	// Timeout bounds one export, retries included (default 10 s).
	Timeout time.Duration
	// Delay is the longest a span waits to be exported (default 5 s).
	Delay time.Duration
	// MaxBatch is the most spans one export carries, and a batch that
	// many strong is exported without waiting for the delay (default
	// 512); MaxQueue is the most spans held, waiting or being exported:
	// a span ending while that many are held is dropped and counted
	// (default 2048).
	MaxBatch, MaxQueue int
	// MaxBytes bounds the encoded bytes of the spans held the same way
	// (default DefaultMaxBytes): spans with large attributes reach it
	// before MaxQueue.
	MaxBytes int
	// Client posts the batches (default a client of its own).
	Client *http.Client
	// Error reports a batch not exported and the spans dropped (default
	// OpenTelemetry's error handler, otel.Handle).
	Error func(error)
}

// Processor is an sdktrace.SpanProcessor exporting the sampled spans
// that end, as the SDK's batch span processor over its OTLP/HTTP
// exporter does.
type Processor struct {
	cfg Config

	mu     sync.Mutex
	batch  batch       // the spans ending now
	ready  []batch     // full batches, to be exported
	held   int         // spans in batch, ready and the batch being exported
	bytes  int         // their encoded bytes
	last   []scopeSize // the bytes of each scope in the last batch cut
	closed bool

	kick    chan struct{} // an export is due: the batch is full, or flushing
	flushed chan struct{} // closed and replaced after each export
	done    chan struct{}
	stop    chan struct{}

	dropped atomic.Int64
}

// batch is the spans waiting, encoded, grouped by scope, for one
// resource.
type batch struct {
	res    *resource.Resource
	scopes []scopeSpans
	n      int // spans
	bytes  int // their encoded bytes
}

type scopeSpans struct {
	scope instrumentation.Scope
	spans []byte // Span messages, each with ScopeSpans' spans tag
}

type scopeSize struct {
	scope instrumentation.Scope
	n     int
}

// lastSize is the room a batch's buffer for scope starts with: an
// eighth more than the scope's spans took in the last batch, at least
// 4 KiB.
func (p *Processor) lastSize(scope instrumentation.Scope) int {
	for _, l := range p.last {
		if l.scope == scope {
			return max(4<<10, l.n+l.n/8)
		}
	}
	return 4 << 10
}

// DefaultMaxBytes is Config.MaxBytes's default: 2048 spans of 8 KiB.
const DefaultMaxBytes = 16 << 20

// encoded holds the buffers spans are encoded in before they join a
// batch.
var encoded = sync.Pool{New: func() any { return new([]byte) }}

// New starts a Processor; Shutdown stops it.
func New(cfg Config) *Processor {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.Delay <= 0 {
		cfg.Delay = 5 * time.Second
	}
	if cfg.MaxBatch <= 0 {
		cfg.MaxBatch = 512
	}
	if cfg.MaxQueue <= 0 {
		cfg.MaxQueue = 2048
	}
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = DefaultMaxBytes
	}
	if cfg.MaxBatch > cfg.MaxQueue {
		cfg.MaxBatch = cfg.MaxQueue
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{}
	}
	if cfg.Error == nil {
		cfg.Error = otel.Handle
	}
	p := &Processor{cfg: cfg, kick: make(chan struct{}, 1), flushed: make(chan struct{}),
		done: make(chan struct{}), stop: make(chan struct{})}
	go p.run()
	return p
}

// Dropped is the number of spans dropped: ended while MaxQueue spans or
// MaxBytes were held, or in a batch the collector did not take.
func (p *Processor) Dropped() int64 { return p.dropped.Load() }

// OnStart does nothing.
func (p *Processor) OnStart(context.Context, sdktrace.ReadWriteSpan) {}

// OnEnd encodes s into the batch when it is sampled.
func (p *Processor) OnEnd(s sdktrace.ReadOnlySpan) {
	if !s.SpanContext().IsSampled() {
		return
	}
	// Encoded before the lock is taken, so that spans ending together
	// wait for each other only to append their bytes.
	bp := encoded.Get().(*[]byte)
	b, at := begin((*bp)[:0], scopeSpansSpans)
	b = end(appendSpan(b, s), at)
	defer func() {
		if cap(b) <= 64<<10 { // a rare large span's buffer is not kept
			*bp = b
			encoded.Put(bp)
		}
	}()
	p.mu.Lock()
	if res := p.batch.res; p.closed || p.held >= p.cfg.MaxQueue || p.bytes+len(b) > p.cfg.MaxBytes || (res != nil && res != s.Resource() && !res.Equal(s.Resource())) {
		// One provider has one resource; a span of another is not
		// this processor's.
		p.mu.Unlock()
		p.dropped.Add(1)
		return
	}
	p.batch.res = s.Resource()
	scope := s.InstrumentationScope()
	i := 0
	for i < len(p.batch.scopes) && p.batch.scopes[i].scope != scope {
		i++
	}
	if i == len(p.batch.scopes) {
		// Sized once for what the scope's last batch held: grown step by
		// step, it would take memory from a size class at each step,
		// and a small heap's collector counts every class's span from
		// when it is taken.
		p.batch.scopes = append(p.batch.scopes, scopeSpans{scope: scope, spans: make([]byte, 0, p.lastSize(scope))})
	}
	ss := &p.batch.scopes[i]
	ss.spans = append(ss.spans, b...)
	p.batch.n++
	p.batch.bytes += len(b)
	p.held++
	p.bytes += len(b)
	full := p.batch.n == p.cfg.MaxBatch
	if full {
		p.cut()
	}
	p.mu.Unlock()
	if full {
		p.signal()
	}
}

// cut moves the batch to those ready to be exported, and notes its size
// for the next one's buffers. p.mu is held.
func (p *Processor) cut() {
	b := p.batch
	p.batch = batch{res: b.res}
	if b.n == 0 {
		return
	}
	p.ready = append(p.ready, b)
	p.last = p.last[:0]
	for _, ss := range b.scopes {
		p.last = append(p.last, scopeSize{ss.scope, len(ss.spans)})
	}
}

func (p *Processor) signal() {
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

// ForceFlush exports the spans waiting and waits for it, or for ctx.
func (p *Processor) ForceFlush(ctx context.Context) error {
	p.mu.Lock()
	wait := p.flushed
	p.mu.Unlock()
	p.signal()
	select {
	case <-wait:
		return nil
	case <-p.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Shutdown exports the spans waiting and stops; spans ending later are
// dropped. It returns when the last export ended or ctx is done.
func (p *Processor) Shutdown(ctx context.Context) error {
	p.mu.Lock()
	if !p.closed {
		p.closed = true
		close(p.stop)
	}
	p.mu.Unlock()
	select {
	case <-p.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// run exports the batches every Delay, when one is full, when flushed,
// and once more on shutdown. A batch's buffers are not kept for the next: on
// a small heap, memory held between exports shortens every garbage
// collection's runway, where a few buffers a second allocated anew
// cost nothing a request would notice.
func (p *Processor) run() {
	defer close(p.done)
	t := time.NewTimer(p.cfg.Delay)
	defer t.Stop()
	var reported int64
	for {
		stopping := false
		select {
		case <-t.C:
		case <-p.kick:
		case <-p.stop:
			stopping = true
		}
		p.mu.Lock()
		p.cut()
		ready := p.ready
		p.ready = nil
		flushed := p.flushed
		p.flushed = make(chan struct{})
		p.mu.Unlock()
		for i := range ready {
			b := &ready[i]
			parts, n := request(b)
			if err := p.export(parts, n, stopping); err != nil {
				p.dropped.Add(int64(b.n))
				p.cfg.Error(fmt.Errorf("otlp: %d spans not exported: %w", b.n, err))
				reported = p.dropped.Load()
			}
			p.mu.Lock()
			p.held -= b.n
			p.bytes -= b.bytes
			p.mu.Unlock()
			*b = batch{} // its memory goes now, not after the others
		}
		if d := p.dropped.Load(); d != reported {
			p.cfg.Error(fmt.Errorf("otlp: %d spans dropped so far: %d spans or %d bytes were held already, or the collector did not take them", d, p.cfg.MaxQueue, p.cfg.MaxBytes))
			reported = d
		}
		close(flushed)
		if stopping {
			return
		}
		t.Reset(p.cfg.Delay)
	}
}

// request is the ExportTraceServiceRequest of b, in parts: the messages
// around the spans, written here, and the batch's buffers of spans as
// they are, not copied; n is its length.
func request(b *batch) (parts net.Buffers, n int) {
	var head []byte
	if b.res != nil {
		head = appendResource(head, b.res)
	}
	scopes := make([][2][]byte, len(b.scopes)) // each scope, and its schema URL
	inner := len(head)
	for i := range b.scopes {
		ss := &b.scopes[i]
		scopes[i][0] = appendScope(nil, ss.scope)
		scopes[i][1] = appendString(nil, scopeSpansSchemaURL, ss.scope.SchemaURL)
		m := len(scopes[i][0]) + len(ss.spans) + len(scopes[i][1])
		inner += protowire.SizeTag(resourceSpansScopeSpans) + protowire.SizeBytes(m)
	}
	var tail []byte
	if b.res != nil {
		tail = appendString(nil, resourceSpansSchemaURL, b.res.SchemaURL())
	}
	inner += len(tail)
	top := protowire.AppendTag(nil, requestResourceSpans, protowire.BytesType)
	top = protowire.AppendVarint(top, uint64(inner))
	parts = append(parts, append(top, head...))
	for i := range b.scopes {
		ss := &b.scopes[i]
		m := len(scopes[i][0]) + len(ss.spans) + len(scopes[i][1])
		sh := protowire.AppendTag(nil, resourceSpansScopeSpans, protowire.BytesType)
		sh = protowire.AppendVarint(sh, uint64(m))
		parts = append(parts, append(sh, scopes[i][0]...), ss.spans, scopes[i][1])
	}
	parts = append(parts, tail)
	for _, p := range parts {
		n += len(p)
	}
	return parts, n
}

// export posts the request, again after a while when the collector asks
// to retry (429, 502, 503, 504) or cannot be reached, within Timeout; on
// shutdown once.
func (p *Processor) export(parts net.Buffers, n int, once bool) error {
	ctx, cancel := context.WithTimeout(context.Background(), p.cfg.Timeout)
	defer cancel()
	encoding := ""
	if p.cfg.Gzip {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		for _, b := range parts {
			_, _ = zw.Write(b)
		}
		_ = zw.Close()
		parts, n, encoding = net.Buffers{buf.Bytes()}, buf.Len(), "gzip"
	}
	wait := time.Second
	for {
		retry, after, err := p.post(ctx, parts, n, encoding)
		if err == nil || !retry || once {
			return err
		}
		if after > 0 {
			wait = after
		}
		select {
		case <-ctx.Done():
			return err
		case <-p.stop:
			return err
		case <-time.After(wait):
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// post sends one export: whether a failure may be retried, and after how
// long when the collector said.
func (p *Processor) post(ctx context.Context, parts net.Buffers, n int, encoding string) (retry bool, after time.Duration, err error) {
	body := func() io.ReadCloser {
		b := slices.Clone(parts) // reading consumes it
		return io.NopCloser(&b)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.cfg.URL, body())
	if err != nil {
		return false, 0, err
	}
	req.ContentLength = int64(n)
	req.GetBody = func() (io.ReadCloser, error) { return body(), nil }
	req.Header.Set("Content-Type", "application/x-protobuf")
	if encoding != "" {
		req.Header.Set("Content-Encoding", encoding)
	}
	for k, v := range p.cfg.Headers {
		req.Header.Set(k, v)
	}
	resp, err := p.cfg.Client.Do(req)
	if err != nil {
		return ctx.Err() == nil, 0, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return false, 0, nil
	case resp.StatusCode == http.StatusTooManyRequests, resp.StatusCode == http.StatusBadGateway,
		resp.StatusCode == http.StatusServiceUnavailable, resp.StatusCode == http.StatusGatewayTimeout:
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
			after = time.Duration(s) * time.Second
		}
		return true, after, errors.New(resp.Status)
	}
	return false, 0, errors.New(resp.Status)
}
