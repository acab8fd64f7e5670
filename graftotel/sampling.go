package graftotel

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/internal/hookmem"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/embedded"
)

// TracerProvider is an OpenTelemetry SDK tracer provider whose sampler
// the instrumentation knows, so that it decides a request's sampling in
// front of the SDK. A request the sampler drops gets a span of
// graftotel's own that records nothing and carries the trace context the
// SDK would have given it (the incoming trace ID or a new random one, a
// new random span ID, the sampled flag cleared, the sampler's trace
// state): it propagates like the SDK's, and costs no span start in the
// SDK. A request the sampler keeps is started by the SDK, with the trace
// ID the sampler decided on and without asking the sampler again. Build
// it with NewTracerProvider; every method of the SDK's provider is
// available on it.
type TracerProvider struct {
	*sdktrace.TracerProvider
	sampler sdktrace.Sampler
	known   *knownSampler // nil unless sampler is one of the SDK's
	// decides is false when the SDK's own observability metrics are on
	// (OTEL_GO_X_OBSERVABILITY): they count every span the SDK starts,
	// so every request goes through it.
	decides bool
}

// NewTracerProvider returns the SDK's tracer provider built with opts
// and sampler (nil: ParentBased(AlwaysSample()), the SDK's default; the
// OTEL_TRACES_SAMPLER variable is not read). It sets the provider's
// sampler and ID generator itself (random trace and span IDs, as the
// SDK's), so opts must set neither. The SDK's own samplers
// (AlwaysSample, NeverSample, TraceIDRatioBased and ParentBased of them)
// are read once, and their decisions taken without calling them; any
// other sampler is asked.
func NewTracerProvider(sampler sdktrace.Sampler, opts ...sdktrace.TracerProviderOption) *TracerProvider {
	if sampler == nil {
		sampler = sdktrace.ParentBased(sdktrace.AlwaysSample())
	}
	opts = append(opts[:len(opts):len(opts)], sdktrace.WithSampler(presetSampler{sampler}), sdktrace.WithIDGenerator(presetIDs{}))
	return &TracerProvider{TracerProvider: sdktrace.NewTracerProvider(opts...), sampler: sampler,
		known: knownSamplerOf(sampler), decides: !sdkObservability()}
}

// sdkObservability reports whether the SDK counts the spans it starts
// (its experimental OTEL_GO_X_OBSERVABILITY, or the older
// OTEL_GO_X_SELF_OBSERVABILITY).
func sdkObservability() bool {
	for _, k := range []string{"OTEL_GO_X_OBSERVABILITY", "OTEL_GO_X_SELF_OBSERVABILITY"} {
		if strings.EqualFold(os.Getenv(k), "true") {
			return true
		}
	}
	return false
}

// requestSpanName is the name a request's span starts with (After renames
// it after the operation).
const requestSpanName = "GraphQL Operation"

// decisionKey is the context key of the decision the instrumentation took
// for a request's span before handing its start to the SDK.
type decisionKey struct{}

// decision is a sampling decision taken for the span of trace tid; used
// is set once the SDK's sampler took it, so that no other span of the
// trace (a child, or a new root in the same context) does.
type decision struct {
	tid  trace.TraceID
	res  sdktrace.SamplingResult
	used bool
}

// pending returns the decision in ctx not yet taken, nil for none.
func pending(ctx context.Context) *decision {
	if d, _ := ctx.Value(decisionKey{}).(*decision); d != nil && !d.used {
		return d
	}
	return nil
}

// presetSampler is the provider's sampler: the decision the
// instrumentation took for a request's span, else the sampler's own.
type presetSampler struct{ sdktrace.Sampler }

func (s presetSampler) ShouldSample(p sdktrace.SamplingParameters) sdktrace.SamplingResult {
	if d := pending(p.ParentContext); d != nil && d.tid == p.TraceID {
		d.used = true
		return d.res
	}
	return s.Sampler.ShouldSample(p)
}

// presetIDs is the provider's ID generator: random IDs, and for a
// request's root span the trace ID its sampler decided on.
type presetIDs struct{}

func (presetIDs) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	if d := pending(ctx); d != nil {
		return d.tid, newSpanID()
	}
	return newTraceID(), newSpanID()
}

func (presetIDs) NewSpanID(context.Context, trace.TraceID) trace.SpanID { return newSpanID() }

// newTraceID and newSpanID draw valid (non-zero) IDs as the SDK's
// generator does.
func newTraceID() (tid trace.TraceID) {
	for !tid.IsValid() {
		binary.NativeEndian.PutUint64(tid[:8], rand.Uint64())
		binary.NativeEndian.PutUint64(tid[8:], rand.Uint64())
	}
	return tid
}

func newSpanID() (sid trace.SpanID) {
	for !sid.IsValid() {
		binary.NativeEndian.PutUint64(sid[:], rand.Uint64())
	}
	return sid
}

// startRequestSpan starts the span of a request whose trace context is in
// ctx (extracted from its headers), deciding its sampling first: a
// dropped request gets a *dropped, which is both its span and its
// context, in memory its request's state keeps for it (hookmem) when ev
// has some; a sampled one the SDK's span.
func (in *Instrumentation) startRequestSpan(ctx context.Context, ev *graft.HookEvent) (context.Context, trace.Span) {
	parent := trace.SpanFromContext(ctx)
	if parent.IsRecording() {
		// The SDK counts a recording parent's children: it starts them.
		return in.tracer.Start(ctx, requestSpanName, serverKind...)
	}
	psc := parent.SpanContext()
	tid := psc.TraceID()
	var d *dropped
	var res sdktrace.SamplingResult
	if k := in.known; k != nil {
		// One of the SDK's samplers: its decision, taken here, on the
		// trace ID's low half (ratio), which is all a new trace ID
		// needs so far: the high half is drawn when read.
		lazy := !tid.IsValid()
		if lazy {
			binary.BigEndian.PutUint64(tid[8:], rand.Uint64())
		}
		if !k.samples(psc, tid) {
			d = in.newDropped(ev)
			d.Context = ctx
			d.setIDs(tid, lazy, psc.TraceFlags()&^trace.FlagsSampled, false)
			d.setAux(in, psc.TraceState())
			return d, d
		}
		if lazy {
			binary.BigEndian.PutUint64(tid[:8], nonZero())
		}
		res.Decision = sdktrace.RecordAndSample
		res.Tracestate = psc.TraceState()
	} else {
		if !tid.IsValid() {
			tid = newTraceID()
		}
		// While the sampler decides, d stands for the parent in the
		// context it is given (the sampler reads the parent's span
		// context, found at once rather than at the end of the
		// request's context chain).
		d = in.standIn(ctx, psc, ev)
		res = in.sampler.ShouldSample(sdktrace.SamplingParameters{ParentContext: d, TraceID: tid,
			Name: requestSpanName, Kind: trace.SpanKindServer})
		if res.Decision == sdktrace.Drop {
			d.setIDs(tid, false, psc.TraceFlags()&^trace.FlagsSampled, false)
			d.setAux(in, res.Tracestate)
			return d, d
		}
	}
	// The SDK starts it with tid and this decision, which its parent
	// context holds for presetIDs and presetSampler: taken once, it is
	// gone for every later span. (In the span's context, d stands for
	// the request's parent under the decision.)
	if d == nil {
		d = in.standIn(ctx, psc, ev)
	}
	return in.tracer.Start(&decidedCtx{Context: d, d: decision{tid: tid, res: res}}, requestSpanName, serverKind...)
}

// decidedCtx is the parent context of a sampled request's span: it holds
// the decision taken for it.
type decidedCtx struct {
	context.Context
	d decision
}

func (c *decidedCtx) Value(key any) any {
	if key == (decisionKey{}) {
		return &c.d
	}
	return c.Context.Value(key)
}

// dropped is the span of a request its sampler dropped, and the context
// carrying it (trace.SpanFromContext finds it): what the SDK's
// non-recording span and its context are, in one piece of memory, which
// the request's state holds (hookmem.Span, whose shape it has). Its span
// context is kept field by field: the trace ID in two halves, and the
// span ID, either of which a new span draws when it is first read (draw),
// rather than for every request whose IDs nobody reads; the trace state,
// mostly empty, behind aux.
type dropped struct {
	context.Context
	embedded.Span
	aux    any // *Instrumentation, or *droppedAux when there is a trace state
	hi     atomic.Uint64
	lo     uint64
	sid    atomic.Uint64
	flags  trace.TraceFlags
	draw   uint8 // drawHi, drawSID: the IDs still to be drawn when read
	remote bool
}

// The IDs a dropped span draws when they are first read.
const (
	drawHi = 1 << iota
	drawSID
)

// droppedAux is the aux of a dropped span with a trace state.
type droppedAux struct {
	in    *Instrumentation
	state trace.TraceState
}

// hookMemFits says whether a dropped has the shape of a hookmem.Span:
// its three interface values first, then its plain data, within the
// Span's size.
var hookMemFits = func() bool {
	var d dropped
	var m hookmem.Span
	return unsafe.Offsetof(d.Span) == 16 && unsafe.Offsetof(d.aux) == 32 &&
		unsafe.Offsetof(d.hi) == unsafe.Sizeof(m.Ifaces) &&
		unsafe.Sizeof(d) <= unsafe.Sizeof(m.Ifaces)+unsafe.Sizeof(m.Words)
}()

// newDropped returns a zero dropped: the memory ev's request keeps for
// it when there is some, else a new one.
func (in *Instrumentation) newDropped(ev *graft.HookEvent) *dropped {
	if hookMemFits && ev != nil {
		if m := hookmem.Take(ev); m != nil {
			return (*dropped)(unsafe.Pointer(m))
		}
	}
	return new(dropped)
}

// setIDs sets the span's trace ID, tid (its high half drawn when read if
// lazy), a span ID drawn when read, its flags and remote.
func (d *dropped) setIDs(tid trace.TraceID, lazy bool, flags trace.TraceFlags, remote bool) {
	d.hi.Store(binary.BigEndian.Uint64(tid[:8]))
	d.lo = binary.BigEndian.Uint64(tid[8:])
	d.sid.Store(0)
	d.flags, d.remote, d.draw = flags, remote, drawSID
	if lazy {
		d.draw |= drawHi
	}
}

// setAux sets the span's instrumentation and trace state.
func (d *dropped) setAux(in *Instrumentation, ts trace.TraceState) {
	if ts.Len() == 0 {
		d.aux = in
		return
	}
	d.aux = &droppedAux{in: in, state: ts}
}

// standIn returns a *dropped standing for the request's parent, of span
// context psc, over ctx.
func (in *Instrumentation) standIn(ctx context.Context, psc trace.SpanContext, ev *graft.HookEvent) *dropped {
	d := in.newDropped(ev)
	d.Context = ctx
	d.setIDs(psc.TraceID(), false, psc.TraceFlags(), psc.IsRemote())
	sid := psc.SpanID()
	d.sid.Store(binary.BigEndian.Uint64(sid[:]))
	d.draw = 0
	d.setAux(in, psc.TraceState())
	return d
}

// drawn returns *p, first set to a random non-zero value if it is zero:
// the first reader draws it, and every reader gets the same.
func drawn(p *atomic.Uint64) uint64 {
	if v := p.Load(); v != 0 {
		return v
	}
	v := nonZero()
	if p.CompareAndSwap(0, v) {
		return v
	}
	return p.Load()
}

// nonZero returns a random non-zero value.
func nonZero() uint64 {
	for {
		if v := rand.Uint64(); v != 0 {
			return v
		}
	}
}

// spanKey is the key trace.ContextWithSpan stores a span under, which the
// trace package does not export: keyProbe learns it from
// trace.SpanFromContext, which asks its context for it.
var spanKey = func() any {
	var p keyProbe
	trace.SpanFromContext(&p)
	return p.key
}()

type keyProbe struct {
	context.Context
	key any
}

func (p *keyProbe) Value(key any) any {
	p.key = key
	return nil
}

// Value answers trace's span key with d, the instrumentation's state key
// with none (a dropped request has none, whatever its parent has), and
// other keys from the parent.
func (d *dropped) Value(key any) any {
	switch key {
	case spanKey:
		return trace.Span(d)
	case stateKey{}:
		return (*reqState)(nil)
	case decisionKey{}:
		return (*decision)(nil) // taken already, if any was
	}
	return d.Context.Value(key)
}

// The span's methods: it records nothing.
func (d *dropped) SpanContext() trace.SpanContext {
	hi, sid := d.hi.Load(), d.sid.Load()
	if d.draw&drawHi != 0 && hi == 0 {
		hi = drawn(&d.hi)
	}
	if d.draw&drawSID != 0 && sid == 0 {
		sid = drawn(&d.sid)
	}
	cfg := trace.SpanContextConfig{TraceFlags: d.flags, Remote: d.remote}
	binary.BigEndian.PutUint64(cfg.TraceID[:8], hi)
	binary.BigEndian.PutUint64(cfg.TraceID[8:], d.lo)
	binary.BigEndian.PutUint64(cfg.SpanID[:], sid)
	if a, ok := d.aux.(*droppedAux); ok {
		cfg.TraceState = a.state
	}
	return trace.NewSpanContext(cfg)
}
func (d *dropped) IsRecording() bool                       { return false }
func (d *dropped) End(...trace.SpanEndOption)              {}
func (d *dropped) AddEvent(string, ...trace.EventOption)   {}
func (d *dropped) AddLink(trace.Link)                      {}
func (d *dropped) RecordError(error, ...trace.EventOption) {}
func (d *dropped) SetStatus(codes.Code, string)            {}
func (d *dropped) SetName(string)                          {}
func (d *dropped) SetAttributes(...attribute.KeyValue)     {}
func (d *dropped) TracerProvider() trace.TracerProvider {
	if a, ok := d.aux.(*droppedAux); ok {
		return a.in.sdkTP
	}
	return d.aux.(*Instrumentation).sdkTP
}
