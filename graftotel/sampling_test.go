package graftotel_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/graftgql/graft"
	graftotel "github.com/graftgql/graft/graftotel"
	"github.com/graftgql/graft/schema"
)

// providers are the two ways of giving the instrumentation a tracer
// provider: the SDK's own (the SDK starts every request's span) and
// graftotel's (the instrumentation decides sampling first), each with
// sampler and exporting to exp.
func providers(sampler sdktrace.Sampler, exp sdktrace.SpanExporter) []struct {
	name string
	tp   trace.TracerProvider
	sdk  *sdktrace.TracerProvider
} {
	sdk := sdktrace.NewTracerProvider(sdktrace.WithSampler(sampler), sdktrace.WithSyncer(exp))
	decided := graftotel.NewTracerProvider(sampler, sdktrace.WithSyncer(exp))
	return []struct {
		name string
		tp   trace.TracerProvider
		sdk  *sdktrace.TracerProvider
	}{{"sdk", sdk, sdk}, {"decided", decided, decided.TracerProvider}}
}

// seenSpan is what a resolver saw of the trace: its span, and what a
// client called with its context would send.
type seenSpan struct {
	span        trace.Span
	recording   bool
	traceparent string
	tracestate  string
}

// instrumented builds a router over s with graftotel's instrumentation
// for opts installed.
func instrumented(t *testing.T, opts graftotel.Options, s *schema.Schema) *graft.Router {
	t.Helper()
	in, err := graftotel.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	var cfg graft.Config
	in.Install(&cfg)
	r, err := graft.NewRouter(s, nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// spySchema is a schema whose field "seen" records the span in its
// resolver's context.
func spySchema(t *testing.T, seen *[]seenSpan) *schema.Schema {
	t.Helper()
	b := schema.New()
	schema.QueryNoArgs(b, "seen", func(ctx context.Context) (string, error) {
		c := propagation.MapCarrier{}
		propagation.TraceContext{}.Inject(ctx, c)
		*seen = append(*seen, seenSpan{trace.SpanFromContext(ctx), trace.SpanFromContext(ctx).IsRecording(), c["traceparent"], c["tracestate"]})
		return "ok", nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDroppedRequestKeepsTraceContext: a request the sampler drops
// starts no span that records, with the SDK's provider or graftotel's,
// and its resolvers see the same trace context from both: the incoming
// trace continued (or a new one), a new span ID, the sampled flag
// cleared, the trace state kept, the SDK's provider behind the span; a
// client called from a resolver propagates it.
func TestDroppedRequestKeepsTraceContext(t *testing.T) {
	const traceID, parentID = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	for _, p := range providers(sdktrace.ParentBased(sdktrace.TraceIDRatioBased(0)), tracetest.NewInMemoryExporter()) {
		t.Run(p.name, func(t *testing.T) {
			var started atomic.Int64
			p.sdk.RegisterSpanProcessor(startCounter{&started})
			var seen []seenSpan
			r := instrumented(t, graftotel.Options{TracerProvider: p.tp, NoMetrics: true, TraceIDExtension: true}, spySchema(t, &seen))
			for _, tc := range []struct {
				name, traceparent, tracestate string
			}{
				{"continued", "00-" + traceID + "-" + parentID + "-00", "vendor=x,other=y"},
				{"new trace", "", ""},
			} {
				seen = seen[:0]
				out := do(t, r, `{ seen }`, "traceparent", tc.traceparent, "tracestate", tc.tracestate)
				if len(seen) != 1 {
					t.Fatalf("%s: resolver ran %d times: %v", tc.name, len(seen), out)
				}
				s := seen[0]
				sc := s.span.SpanContext()
				if s.recording || !sc.IsValid() || sc.IsSampled() || sc.IsRemote() {
					t.Fatalf("%s: span recording %v, context %+v: want a valid, unsampled, local, non-recording span", tc.name, s.recording, sc)
				}
				if tc.traceparent != "" && (sc.TraceID().String() != traceID || sc.SpanID().String() == parentID) {
					t.Fatalf("%s: trace %s span %s: want trace %s continued with a new span ID", tc.name, sc.TraceID(), sc.SpanID(), traceID)
				}
				if want := fmt.Sprintf("00-%s-%s-00", sc.TraceID(), sc.SpanID()); s.traceparent != want {
					t.Fatalf("%s: a client would send traceparent %q, want %q", tc.name, s.traceparent, want)
				}
				if s.tracestate != tc.tracestate {
					t.Fatalf("%s: a client would send tracestate %q, want %q", tc.name, s.tracestate, tc.tracestate)
				}
				if got, ok := s.span.TracerProvider().(*sdktrace.TracerProvider); !ok || got != p.sdk {
					t.Fatalf("%s: the span's provider is %T, want the SDK's provider", tc.name, s.span.TracerProvider())
				}
				if ext, _ := out["extensions"].(map[string]any); ext["traceId"] != sc.TraceID().String() {
					t.Fatalf("%s: extensions %v, want traceId %s", tc.name, out["extensions"], sc.TraceID())
				}
			}
			if n := started.Load(); n != 0 {
				t.Fatalf("%d recording spans started for dropped requests", n)
			}
		})
	}
}

// startCounter counts the recording spans started.
type startCounter struct{ n *atomic.Int64 }

func (c startCounter) OnStart(context.Context, sdktrace.ReadWriteSpan) { c.n.Add(1) }
func (startCounter) OnEnd(sdktrace.ReadOnlySpan)                       {}
func (startCounter) Shutdown(context.Context) error                    { return nil }
func (startCounter) ForceFlush(context.Context) error                  { return nil }

// spanShape is a span without its IDs and times: its name, kind, its
// parent's name ("" for a root, "remote" for a remote parent),
// attributes, status and events.
func spanShape(s tracetest.SpanStub, names map[trace.SpanID]string) string {
	parent := names[s.Parent.SpanID()]
	if s.Parent.IsRemote() {
		parent = "remote"
	}
	var attrs []string
	for _, kv := range s.Attributes {
		v := kv.Value.Emit()
		if kv.Key == "graft.request_id" {
			v = "<id>"
		}
		attrs = append(attrs, string(kv.Key)+"="+v)
	}
	slices.Sort(attrs)
	var events []string
	for _, e := range s.Events {
		set := attribute.NewSet(e.Attributes...)
		events = append(events, e.Name+set.Encoded(attribute.DefaultEncoder()))
	}
	return fmt.Sprintf("%s kind=%s parent=%s attrs=[%s] status=%v events=%v", s.Name, s.SpanKind, parent,
		strings.Join(attrs, " "), s.Status, events)
}

// TestSampledRequestSameSpans: a request the sampler keeps gives the
// same spans with graftotel's provider as with the SDK's, whether it asks
// the sampler or takes the decision of one of the SDK's samplers itself:
// names, kinds, attributes, status, events and parent/child structure,
// continuing an incoming trace or starting one; and the sampler is asked
// once per request.
func TestSampledRequestSameSpans(t *testing.T) {
	shapes := map[string][]string{}
	for _, name := range []string{"sdk", "decided", "known"} {
		exp := tracetest.NewInMemoryExporter()
		var asked atomic.Int64
		sampler := sdktrace.ParentBased(countingSampler{sdktrace.AlwaysSample(), &asked})
		tp := trace.TracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSampler(sampler), sdktrace.WithSyncer(exp)))
		switch name {
		case "decided":
			tp = graftotel.NewTracerProvider(sampler, sdktrace.WithSyncer(exp))
		case "known": // one of the SDK's samplers, whose decision graftotel takes itself
			tp = graftotel.NewTracerProvider(sdktrace.ParentBased(sdktrace.AlwaysSample()), sdktrace.WithSyncer(exp))
		}
		in, err := graftotel.New(graftotel.Options{TracerProvider: tp, NoMetrics: true, PhaseSpans: true, ResolverSpans: true, MinResolverDepth: 2})
		if err != nil {
			t.Fatal(err)
		}
		cfg := graft.Config{RequestID: true}
		in.Install(&cfg)
		r, err := graft.NewRouter(testSchema(t), nil, cfg)
		if err != nil {
			t.Fatal(err)
		}
		const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
		do(t, r, `query Shelf { books { title upper } fail }`, "traceparent", "00-"+traceID+"-00f067aa0ba902b7-01")
		do(t, r, `query Other { books { title } }`)
		spans := exp.GetSpans()
		names := map[trace.SpanID]string{}
		for _, s := range spans {
			names[s.SpanContext.SpanID()] = s.Name
		}
		var shape []string
		for _, s := range spans {
			shape = append(shape, spanShape(s, names))
			if s.Name == "query Shelf" && s.SpanContext.TraceID().String() != traceID {
				t.Fatalf("%s: the request's span is in trace %s, want %s", name, s.SpanContext.TraceID(), traceID)
			}
		}
		slices.Sort(shape)
		shapes[name] = shape
		if n := asked.Load(); name != "known" && n != 1 {
			// Only the second request's span is a root: the first
			// continues a sampled trace, the phase and resolver spans
			// are children.
			t.Fatalf("%s: the root sampler was asked %d times, want once", name, n)
		}
	}
	if len(shapes["sdk"]) < 10 {
		t.Fatalf("only %d spans: %v", len(shapes["sdk"]), shapes["sdk"])
	}
	for _, name := range []string{"decided", "known"} {
		if !slices.Equal(shapes["sdk"], shapes[name]) {
			t.Fatalf("spans differ:\nsdk:\n  %s\n%s:\n  %s", strings.Join(shapes["sdk"], "\n  "), name, strings.Join(shapes[name], "\n  "))
		}
	}
}

// countingSampler counts the decisions its sampler is asked for.
type countingSampler struct {
	sdktrace.Sampler
	n *atomic.Int64
}

func (s countingSampler) ShouldSample(p sdktrace.SamplingParameters) sdktrace.SamplingResult {
	s.n.Add(1)
	return s.Sampler.ShouldSample(p)
}

// TestDecidedRatioSamplingIsConsistent: with graftotel's provider, a
// request starting a trace is sampled by its trace ID as the ratio
// sampler reads it: every exported request span's trace ID is one the
// sampler keeps, and every dropped request's one it drops.
func TestDecidedRatioSamplingIsConsistent(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	ratio := sdktrace.TraceIDRatioBased(0.5)
	tp := graftotel.NewTracerProvider(sdktrace.ParentBased(ratio), sdktrace.WithSyncer(exp))
	var seen []seenSpan
	r := instrumented(t, graftotel.Options{TracerProvider: tp, NoMetrics: true}, spySchema(t, &seen))
	const n = 64
	for range n {
		do(t, r, `{ seen }`)
	}
	keeps := func(tid trace.TraceID) bool {
		return ratio.ShouldSample(sdktrace.SamplingParameters{ParentContext: context.Background(), TraceID: tid}).Decision == sdktrace.RecordAndSample
	}
	exported := map[trace.TraceID]bool{}
	for _, s := range exp.GetSpans() {
		exported[s.SpanContext.TraceID()] = true
		if !keeps(s.SpanContext.TraceID()) {
			t.Fatalf("exported a span of trace %s, which the ratio sampler drops", s.SpanContext.TraceID())
		}
	}
	sampled := 0
	for _, s := range seen {
		tid := s.span.SpanContext().TraceID()
		if s.recording != exported[tid] || s.recording != keeps(tid) {
			t.Fatalf("trace %s: recording %v, exported %v, kept by the sampler %v", tid, s.recording, exported[tid], keeps(tid))
		}
		if s.recording {
			sampled++
		}
	}
	if len(seen) != n || sampled == 0 || sampled == n {
		t.Fatalf("%d requests, %d sampled: want both kinds at a ratio of 0.5", len(seen), sampled)
	}
}

// TestDroppedSpanIsTheContextsSpan: the span of a dropped request is
// what the trace package finds in its context, and a span started under
// it (a client's, a resolver's) is its child in the same trace.
func TestDroppedSpanIsTheContextsSpan(t *testing.T) {
	tp := graftotel.NewTracerProvider(sdktrace.NeverSample())
	var child trace.SpanContext
	var parent trace.Span
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(ctx context.Context) (string, error) {
		parent = trace.SpanFromContext(ctx)
		_, span := parent.TracerProvider().Tracer("client").Start(ctx, "call")
		child = span.SpanContext()
		span.End()
		if !trace.SpanContextFromContext(ctx).Equal(parent.SpanContext()) {
			return "", fmt.Errorf("SpanContextFromContext differs from the span's")
		}
		return "ok", nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	r := instrumented(t, graftotel.Options{TracerProvider: tp, NoMetrics: true}, s)
	if status, body := r.Execute(context.Background(), graft.Request{Query: "{ hello }"}); status != 200 || strings.Contains(string(body), "errors") {
		t.Fatalf("%d %s", status, body)
	}
	if !parent.SpanContext().IsValid() || child.TraceID() != parent.SpanContext().TraceID() || child.SpanID() == parent.SpanContext().SpanID() || !child.IsValid() {
		t.Fatalf("child %+v of %+v: want a new span of the same trace", child, parent.SpanContext())
	}
}

// TestIncomingContextExtracted: the W3C propagator graftotel uses when
// none is set reads a request's traceparent and its baggage, each alone
// (a request without either skips the propagator: nothing to read).
func TestIncomingContextExtracted(t *testing.T) {
	tp := graftotel.NewTracerProvider(sdktrace.ParentBased(sdktrace.NeverSample()))
	var member string
	var sc trace.SpanContext
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(ctx context.Context) (string, error) {
		member = baggage.FromContext(ctx).Member("tenant").Value()
		sc = trace.SpanContextFromContext(ctx)
		return "ok", nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	r := instrumented(t, graftotel.Options{TracerProvider: tp, NoMetrics: true}, s)
	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	for _, tc := range []struct {
		name      string
		header    []string
		member    string
		continued bool
	}{
		{"baggage alone", []string{"baggage", "tenant=acme"}, "acme", false},
		{"traceparent alone", []string{"traceparent", "00-" + traceID + "-00f067aa0ba902b7-00"}, "", true},
		{"both", []string{"traceparent", "00-" + traceID + "-00f067aa0ba902b7-00", "baggage", "tenant=acme"}, "acme", true},
		{"neither", nil, "", false},
	} {
		member, sc = "", trace.SpanContext{}
		do(t, r, `{ hello }`, tc.header...)
		if member != tc.member || (sc.TraceID().String() == traceID) != tc.continued || !sc.IsValid() {
			t.Errorf("%s: baggage member %q, trace %s; want member %q, trace continued %v", tc.name, member, sc.TraceID(), tc.member, tc.continued)
		}
	}
}

// TestDroppedSpanIDs: a dropped request's IDs are drawn when first read,
// once: every reader, concurrent or after the request ended (a context a
// resolver kept), sees the same valid span context. An incoming trace ID
// is kept whole, a zero high half included (a 64-bit ID padded), and a
// new trace ID has random halves, distinct from request to request.
func TestDroppedSpanIDs(t *testing.T) {
	tp := graftotel.NewTracerProvider(sdktrace.ParentBased(sdktrace.TraceIDRatioBased(0)))
	var kept []context.Context
	var reads [][]trace.SpanContext
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(ctx context.Context) (string, error) {
		got := make([]trace.SpanContext, 8)
		var wg sync.WaitGroup
		for i := range got {
			wg.Go(func() { got[i] = trace.SpanContextFromContext(ctx) })
		}
		wg.Wait()
		kept, reads = append(kept, ctx), append(reads, got)
		return "ok", nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	r := instrumented(t, graftotel.Options{TracerProvider: tp, NoMetrics: true}, s)
	const padded, parentID = "00000000000000000af7651916cd43dd", "00f067aa0ba902b7"
	do(t, r, `{ hello }`, "traceparent", "00-"+padded+"-"+parentID+"-00")
	for range 20 {
		do(t, r, `{ hello }`)
	}
	highs := map[string]bool{}
	for i, ctx := range kept {
		sc := reads[i][0]
		for _, o := range reads[i][1:] {
			if !o.Equal(sc) {
				t.Fatalf("request %d: concurrent readers saw %v and %v", i, sc, o)
			}
		}
		if after := trace.SpanContextFromContext(ctx); !after.Equal(sc) || !sc.IsValid() || sc.IsSampled() {
			t.Fatalf("request %d: span context %v during the request, %v after: want one valid, unsampled", i, sc, after)
		}
		tid := sc.TraceID().String()
		if i == 0 {
			if tid != padded || sc.SpanID().String() == parentID {
				t.Fatalf("trace %s span %s: want trace %s continued with a new span ID", tid, sc.SpanID(), padded)
			}
			continue
		}
		if tid[:16] == "0000000000000000" || tid[16:] == "0000000000000000" || highs[tid[:16]] {
			t.Fatalf("request %d: new trace ID %s: want both halves random, distinct across requests", i, tid)
		}
		highs[tid[:16]] = true
	}
	if len(kept) != 21 {
		t.Fatalf("%d requests resolved, want 21", len(kept))
	}
}
