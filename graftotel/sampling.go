package graftotel

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"strings"

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
// context, one allocation of 80 bytes; a sampled one the SDK's span.
func (in *Instrumentation) startRequestSpan(ctx context.Context) (context.Context, trace.Span) {
	parent := trace.SpanFromContext(ctx)
	if parent.IsRecording() {
		// The SDK counts a recording parent's children: it starts them.
		return in.tracer.Start(ctx, requestSpanName, serverKind...)
	}
	psc := parent.SpanContext()
	tid := psc.TraceID()
	if !tid.IsValid() {
		tid = newTraceID()
	}
	var d *dropped
	var res sdktrace.SamplingResult
	if k := in.known; k != nil {
		// One of the SDK's samplers: its decision, taken here.
		res.Tracestate = psc.TraceState()
		if k.samples(psc, tid) {
			res.Decision = sdktrace.RecordAndSample
		}
	} else {
		// While the sampler decides, d stands for the parent in the
		// context it is given (the sampler reads the parent's span
		// context, found at once rather than at the end of the
		// request's context chain).
		d = in.standIn(ctx, psc)
		res = in.sampler.ShouldSample(sdktrace.SamplingParameters{ParentContext: d, TraceID: tid,
			Name: requestSpanName, Kind: trace.SpanKindServer})
	}
	if res.Decision == sdktrace.Drop {
		if d == nil {
			d = &dropped{Context: ctx, in: in}
		}
		d.tid, d.sid, d.flags, d.remote = tid, newSpanID(), psc.TraceFlags()&^trace.FlagsSampled, false
		d.state = traceStateRef(res.Tracestate)
		return d, d
	}
	// The SDK starts it with tid and this decision, which its parent
	// context holds for presetIDs and presetSampler: taken once, it is
	// gone for every later span. (In the span's context, d stands for
	// the request's parent under the decision.)
	if d == nil {
		d = in.standIn(ctx, psc)
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
// non-recording span and its context are, in one allocation. Its span
// context is kept field by field, the trace state behind a pointer (nil
// for none, as it mostly is), which keeps it in a smaller size class.
type dropped struct {
	context.Context
	embedded.Span
	in     *Instrumentation // its sdkTP is the span's provider
	state  *trace.TraceState
	tid    trace.TraceID
	sid    trace.SpanID
	flags  trace.TraceFlags
	remote bool
}

// standIn returns a *dropped standing for the request's parent, of span
// context psc, over ctx.
func (in *Instrumentation) standIn(ctx context.Context, psc trace.SpanContext) *dropped {
	return &dropped{Context: ctx, in: in, tid: psc.TraceID(), sid: psc.SpanID(), flags: psc.TraceFlags(),
		remote: psc.IsRemote(), state: traceStateRef(psc.TraceState())}
}

// traceStateRef returns ts behind a pointer, nil when it is empty.
func traceStateRef(ts trace.TraceState) *trace.TraceState {
	if ts.Len() == 0 {
		return nil
	}
	p := new(trace.TraceState) // not &ts: that would move ts to the heap on every call
	*p = ts
	return p
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
	cfg := trace.SpanContextConfig{TraceID: d.tid, SpanID: d.sid, TraceFlags: d.flags, Remote: d.remote}
	if d.state != nil {
		cfg.TraceState = *d.state
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
func (d *dropped) TracerProvider() trace.TracerProvider    { return d.in.sdkTP }
