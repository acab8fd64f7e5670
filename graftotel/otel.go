// Package graftotel instruments a graft router with OpenTelemetry: a
// trace span per request with an event per phase (or, optionally, a child
// span per phase) and, optionally, a child span per resolver; and metrics
// of requests, errors, in-flight requests, persisted-query and
// document-cache outcomes and open subscriptions.
//
// It is built only on graft's extension points (graft.Hook and
// graft.FieldMiddleware). It is a package of the core module; only it,
// graftserver and cmd/graft import the OpenTelemetry SDK and the
// Prometheus client, so a program importing graft alone builds neither.
package graftotel

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/graftgql/graft"
)

// ScopeName is the instrumentation scope of graft's spans and metrics.
const ScopeName = "github.com/graftgql/graft/graftotel"

// Options configures the instrumentation. The zero value traces requests
// and their phases with the global providers and propagator.
type Options struct {
	// TracerProvider and MeterProvider default to the global ones.
	TracerProvider trace.TracerProvider
	MeterProvider  metric.MeterProvider
	// Propagator extracts the incoming trace context; default the global
	// propagator, or W3C traceparent/tracestate and baggage when none is
	// set.
	Propagator propagation.TextMapPropagator
	// ResolverSpans adds a span per resolved field (off by default: it
	// costs a span per field). Fields shallower than MinResolverDepth
	// (path length, 1 for root fields) and fields named in
	// ExcludeFields ("Type.field" or "field") get none.
	ResolverSpans    bool
	MinResolverDepth int
	ExcludeFields    []string
	// TraceIDExtension adds the trace ID to the response's extensions as
	// "traceId".
	TraceIDExtension bool
	// NoMetrics switches the metrics off, and NoTracing the spans (for
	// metrics alone).
	NoMetrics bool
	NoTracing bool
	// PhaseSpans adds a child span per phase of the request
	// (graphql.received, graphql.parsed, graphql.validated, …) under its
	// span. Without it, the end of each phase but the last is an event of
	// that name on the request's span: the same timeline in one span,
	// which is what a sampled request then exports instead of seven or
	// more.
	PhaseSpans bool
	// MaxOperationNames bounds the distinct values of the metrics'
	// graphql.operation.name attribute, whose values come from clients.
	// A known operation keeps its name until the bound is reached: one
	// named in KnownOperations, or one whose document came from the
	// persisted-query store or safelist. Every other operation is
	// counted under the name "other". Zero means
	// DefaultMaxOperationNames; a negative value counts every operation
	// as "other". Names and error codes are cut to MaxLabelBytes.
	MaxOperationNames int
	// KnownOperations are operation names always kept in the metrics
	// (they count toward MaxOperationNames).
	KnownOperations []string
}

// DefaultMaxOperationNames is the bound of Options.MaxOperationNames.
const DefaultMaxOperationNames = 100

// MaxLabelBytes is the longest attribute value the metrics record for an
// operation name or an error code; longer ones are cut.
const MaxLabelBytes = 64

// Instrumentation holds the tracer, the instruments and the hook.
type Instrumentation struct {
	opts   Options
	tracer trace.Tracer // nil with NoTracing
	prop   propagation.TextMapPropagator
	// w3c says prop is graftotel's own W3C propagator (traceparent and
	// tracestate, then baggage), which leaves a context without
	// traceparent and baggage headers as it is.
	w3c bool
	// sampler is the sampler of a *TracerProvider, which the
	// instrumentation asks itself before starting a request's span, and
	// sdkTP that provider's SDK provider; nil for another provider.
	sampler sdktrace.Sampler
	known   *knownSampler
	sdkTP   trace.TracerProvider
	m       *instruments
	// route is the GraphQL endpoint's path (http.route and url.path of
	// the server span), set by Install.
	route string
}

// New returns the instrumentation for opts.
func New(opts Options) (*Instrumentation, error) {
	tp := opts.TracerProvider
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	prop, w3c := opts.Propagator, false
	if prop == nil {
		prop = otel.GetTextMapPropagator()
		if len(prop.Fields()) == 0 {
			prop, w3c = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}), true
		}
	}
	in := &Instrumentation{opts: opts, prop: prop, w3c: w3c}
	if !opts.NoTracing {
		in.tracer = tp.Tracer(ScopeName)
		if p, ok := tp.(*TracerProvider); ok && p.decides {
			in.sampler, in.known, in.sdkTP = p.sampler, p.known, p.TracerProvider
		}
	}
	if !opts.NoMetrics {
		mp := opts.MeterProvider
		if mp == nil {
			mp = otel.GetMeterProvider()
		}
		m, err := newInstruments(mp.Meter(ScopeName), durationsOf(mp))
		if err != nil {
			return nil, err
		}
		m.names = newNameBound(opts.MaxOperationNames, opts.KnownOperations)
		in.m = m
	}
	return in, nil
}

// Install adds the instrumentation's hook (and resolver-span middleware
// when asked) to cfg, before building the router with it. The server
// spans take cfg.Path as their http.route and url.path.
func (in *Instrumentation) Install(cfg *graft.Config) {
	if in.tracer == nil && in.m == nil {
		return
	}
	in.route = cfg.Path
	if in.route == "" {
		in.route = "/graphql"
	}
	cfg.Hooks = append(cfg.Hooks, in.Hook())
	if in.opts.ResolverSpans && in.tracer != nil {
		cfg.FieldMiddleware = append([]graft.FieldMiddleware{in.ResolverMiddleware()}, cfg.FieldMiddleware...)
	}
}

// ObserveRouter reports the router's open subscriptions as a gauge.
func (in *Instrumentation) ObserveRouter(r *graft.Router) error {
	if in.m == nil {
		return nil
	}
	return in.m.observeSubscriptions(r)
}

// Hook returns the graft.Hook that traces and measures requests.
func (in *Instrumentation) Hook() graft.Hook { return hook{in} }

type hook struct{ in *Instrumentation }

type stateKey struct{}

// reqState is a request's spans. It is itself the context the later
// phases run with (the request span's context plus itself under
// stateKey), which saves a context per request.
type reqState struct {
	context.Context // carries the request span
	span            trace.Span
	phase           trace.Span
}

// Value answers stateKey with the state, other keys from the parent.
func (st *reqState) Value(key any) any {
	if key == (stateKey{}) {
		return st
	}
	return st.Context.Value(key)
}

// headerCarrier reads request headers for the propagator.
type headerCarrier func(string) string

// Get returns the header key, asked for in its canonical form: the
// propagators name their headers in lower case, which net/http's
// Header.Get would canonicalize into a new string on every request.
func (h headerCarrier) Get(key string) string {
	switch key {
	case "traceparent":
		key = "Traceparent"
	case "tracestate":
		key = "Tracestate"
	case "baggage":
		key = "Baggage"
	}
	return h(key)
}
func (h headerCarrier) Set(string, string) {}
func (h headerCarrier) Keys() []string     { return nil }

// Span names and start options, built once rather than per request.
var (
	phaseSpanNames [graft.PhaseAnswered + 1]string
	serverKind     = []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindServer)} // passed as is: no slice per call
)

func init() {
	for p := graft.PhaseReceived; p <= graft.PhaseAnswered; p++ {
		phaseSpanNames[p] = "graphql." + p.String()
	}
}

func phaseSpanName(p graft.Phase) string {
	if p >= 0 && int(p) < len(phaseSpanNames) {
		return phaseSpanNames[p]
	}
	return "graphql." + p.String()
}

// Phases says which phases the hook observes (graft.HookPhases): every
// one when it traces (a request left out by the sampler skips them, see
// Before), else PhaseReceived and PhaseAnswered, where the metrics count.
func (h hook) Phases() []graft.Phase {
	if h.in.tracer != nil {
		return []graft.Phase{graft.PhaseReceived, graft.PhaseParsed, graft.PhaseValidated, graft.PhaseAnalyzed,
			graft.PhaseExecuted, graft.PhasePayload, graft.PhaseAnswered}
	}
	return []graft.Phase{graft.PhaseReceived, graft.PhaseAnswered}
}

func (h hook) Before(ctx context.Context, ev *graft.HookEvent) (context.Context, error) {
	if ev.Phase == graft.PhaseReceived {
		return h.in.received(ctx, ev), nil
	}
	if h.in.tracer == nil {
		return nil, nil // metrics alone start nothing
	}
	if _, ok := ctx.(*dropped); ok {
		return nil, nil // a request its sampler dropped has no phases to trace
	}
	return h.in.phaseStart(ctx, ev), nil
}

// received starts the request's span (nil: the context is kept). It
// runs deep in the pipeline's stack, so it keeps its own frame small and
// leaves the work of a sampled request to sampled: a frame that grows
// the goroutine's stack past its size would copy the stack again after
// every garbage collection shrank it.
func (in *Instrumentation) received(ctx context.Context, ev *graft.HookEvent) context.Context {
	if in.m != nil {
		in.m.inFlight.Add(1)
	}
	if in.tracer == nil {
		return nil
	}
	if h := ev.Request.Header; h != nil && (!in.w3c || h("Traceparent") != "" || h("Baggage") != "") {
		ctx = in.prop.Extract(ctx, headerCarrier(h))
	}
	// The sampler decides here, once: a request it leaves out has a
	// span that records nothing, and nothing to do until its end, where
	// it is measured.
	var span trace.Span
	if in.sampler != nil {
		ctx, span = in.startRequestSpan(ctx, ev)
	} else {
		ctx, span = in.tracer.Start(ctx, requestSpanName, serverKind...)
	}
	if in.opts.TraceIDExtension {
		traceIDExtension(ctx, span)
	}
	if !span.IsRecording() {
		// Nothing to trace; the metrics, when on, measure the end.
		if in.m == nil {
			ev.SkipRequest()
		} else {
			ev.SkipPhases()
		}
		return ctx // resolver spans would be children of the request's span
	}
	return in.sampled(ctx, span)
}

// traceIDExtension adds span's trace ID to the answer's extensions.
func traceIDExtension(ctx context.Context, span trace.Span) {
	if sc := span.SpanContext(); sc.HasTraceID() {
		graft.SetExtension(ctx, "traceId", sc.TraceID().String())
	}
}

// sampled sets up the spans of a sampled request: its state and, with
// PhaseSpans, the span of PhaseReceived. The request span's attributes
// are set at its end, all in one call (each call grows the SDK's slice).
func (in *Instrumentation) sampled(ctx context.Context, span trace.Span) context.Context {
	st := &reqState{Context: ctx, span: span}
	if in.opts.PhaseSpans {
		_, st.phase = in.tracer.Start(ctx, phaseSpanNames[graft.PhaseReceived])
	}
	return st
}

// phaseStart starts the span of a phase after PhaseReceived with
// PhaseSpans; without, it returns the request's state for PhaseExecuted,
// whose resolver spans are its children (nil: the context is kept).
func (in *Instrumentation) phaseStart(ctx context.Context, ev *graft.HookEvent) context.Context {
	st, _ := ctx.Value(stateKey{}).(*reqState)
	if st == nil {
		return nil
	}
	if !in.opts.PhaseSpans {
		if ev.Phase == graft.PhaseExecuted {
			return st // resolver spans are children of the request's span
		}
		return nil
	}
	pctx, phase := in.tracer.Start(st, phaseSpanName(ev.Phase))
	st.phase = phase
	if ev.Phase == graft.PhaseExecuted {
		return pctx // resolver spans are children of the execution
	}
	return st
}

func (h hook) After(ctx context.Context, ev *graft.HookEvent) {
	in := h.in
	if in.tracer == nil {
		if ev.Phase == graft.PhaseAnswered && in.m != nil {
			in.m.record(ctx, ev, time.Since(ev.Start))
		}
		return
	}
	var st *reqState
	if _, ok := ctx.(*dropped); !ok {
		st, _ = ctx.Value(stateKey{}).(*reqState)
	}
	if st == nil {
		// A request refused before it was decoded has no span, and one
		// the sampler left out no state: it is measured all the same.
		if ev.Phase == graft.PhaseAnswered && in.m != nil {
			in.m.record(ctx, ev, time.Since(ev.Start))
		}
		return
	}
	if st.phase != nil {
		if ev.Phase == graft.PhaseExecuted {
			st.phase.SetAttributes(attribute.Int("graphql.error.count", ev.ErrorCount))
		}
		st.phase.End()
		st.phase = nil
	} else if !in.opts.PhaseSpans && ev.Phase != graft.PhaseAnswered {
		st.span.AddEvent(phaseSpanName(ev.Phase)) // the span's end marks the last
	}
	if ev.Phase == graft.PhasePayload {
		for i := range ev.Parts {
			in.partSpan(st, &ev.Parts[i])
		}
	}
	if ev.Phase != graft.PhaseAnswered {
		return
	}
	span := st.span
	if ev.OperationType != "" {
		name := ev.OperationType
		if ev.OperationName != "" {
			name += " " + ev.OperationName
		}
		span.SetName(name)
	}
	// The attributes are passed to the span through an interface, so
	// that their array would be allocated; the SDK's span copies them,
	// and under a TracerProvider (whose spans are the SDK's) the array
	// is reused.
	var buf *[9]attribute.KeyValue
	if in.sdkTP != nil {
		buf = attrBufs.Get().(*[9]attribute.KeyValue)
		defer func() {
			clear(buf[:]) // nothing of the request kept alive
			attrBufs.Put(buf)
		}()
	} else {
		buf = new([9]attribute.KeyValue)
	}
	attrs := buf[:0]
	if ev.Request.Method != "" {
		attrs = append(attrs, attribute.String("http.request.method", ev.Request.Method))
	}
	if in.route != "" {
		attrs = append(attrs, attribute.String("http.route", in.route), attribute.String("url.path", in.route))
	}
	attrs = append(attrs, attribute.Int("graphql.error.count", ev.ErrorCount),
		attribute.Int("http.response.status_code", ev.Status))
	if ev.OperationType != "" {
		attrs = append(attrs, attribute.String("graphql.operation.type", ev.OperationType))
	}
	if ev.OperationName != "" {
		attrs = append(attrs, attribute.String("graphql.operation.name", ev.OperationName))
	}
	if ev.Request.RequestID != "" {
		attrs = append(attrs, attribute.String("graft.request_id", ev.Request.RequestID))
	}
	if h := ev.DocumentHash(); h != "" {
		attrs = append(attrs, attribute.String("graphql.document.hash", "sha256:"+h))
	}
	span.SetAttributes(attrs...)
	if ev.ErrorCount > 0 {
		for _, c := range ev.ErrorCodes {
			span.AddEvent("exception", trace.WithAttributes(attribute.String("exception.type", "GraphQLError"),
				attribute.String("graphql.error.code", c)))
		}
		span.SetStatus(codes.Error, strings.Join(ev.ErrorCodes, ","))
	}
	span.End()
	if in.m != nil {
		in.m.record(st.Context, ev, time.Since(ev.Start))
	}
}

// attrBufs holds the arrays of request spans' attributes.
var attrBufs = sync.Pool{New: func() any { return new([9]attribute.KeyValue) }}

// partSpan records a span for a deferred fragment or a stream of an
// incremental response, a child of the request's span, timed from when
// its work began to when its last result was ready.
func (in *Instrumentation) partSpan(parent context.Context, p *graft.IncrementalPart) {
	name, kind := "GraphQL defer", "defer"
	if p.Stream {
		name, kind = "GraphQL stream", "stream"
	}
	_, span := in.tracer.Start(parent, name, trace.WithTimestamp(p.Start), trace.WithAttributes(
		attribute.String("graphql.incremental.kind", kind),
		attribute.String("graphql.incremental.label", p.Label),
		attribute.String("graphql.incremental.path", p.Path),
		attribute.Int("graphql.error.count", p.Errors)))
	if p.Errors > 0 {
		span.SetStatus(codes.Error, "")
	}
	span.End(trace.WithTimestamp(p.Start.Add(p.Duration)))
}

// ResolverMiddleware returns the middleware that starts a span per
// resolved field (see Options.ResolverSpans).
func (in *Instrumentation) ResolverMiddleware() graft.FieldMiddleware {
	minDepth, exclude := in.opts.MinResolverDepth, in.opts.ExcludeFields
	return graft.FieldMiddleware{Func: func(ctx context.Context, fi *graft.FieldInfo, next func(context.Context) (any, error)) (any, error) {
		if in.tracer == nil || !fi.Resolver || len(fi.Path) < minDepth || !trace.SpanFromContext(ctx).IsRecording() || slices.Contains(exclude, fi.FieldName) ||
			slices.Contains(exclude, fi.ParentType+"."+fi.FieldName) {
			return next(ctx)
		}
		ctx, span := in.tracer.Start(ctx, fi.ParentType+"."+fi.FieldName, trace.WithAttributes(
			attribute.String("graphql.field.parent", fi.ParentType), attribute.String("graphql.field.name", fi.FieldName),
			attribute.String("graphql.field.path", pathString(fi.Path))))
		defer span.End()
		v, err := next(ctx)
		if err != nil {
			span.RecordError(err)
			span.SetStatus(codes.Error, err.Error())
		}
		return v, err
	}}
}

func pathString(p []any) string {
	var b strings.Builder
	for i, e := range p {
		if i > 0 {
			b.WriteByte('.')
		}
		switch v := e.(type) {
		case string:
			b.WriteString(v)
		case int:
			b.WriteString(itoa(v))
		}
	}
	return b.String()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var buf [20]byte
	i := len(buf)
	for n > 0 {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	return string(buf[i:])
}

var errNoRouter = errors.New("graftotel: nil router")
