package otlpspans

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"
)

// collector is an OTLP/HTTP receiver keeping the bodies it was sent.
type collector struct {
	mu      sync.Mutex
	bodies  [][]byte
	headers []http.Header
	status  func(n int) int // the status of the n-th export (from 0); nil: 200
	calls   atomic.Int32
}

func (c *collector) start(t *testing.T) string {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(c.calls.Add(1)) - 1
		b, _ := io.ReadAll(r.Body)
		if c.status != nil {
			if st := c.status(n); st != http.StatusOK {
				w.Header().Set("Retry-After", "1")
				w.WriteHeader(st)
				return
			}
		}
		c.mu.Lock()
		c.bodies = append(c.bodies, b)
		c.headers = append(c.headers, r.Header.Clone())
		c.mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	t.Cleanup(s.Close)
	return s.URL + "/v1/traces"
}

func (c *collector) requests(t *testing.T) []*coltracepb.ExportTraceServiceRequest {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*coltracepb.ExportTraceServiceRequest
	for _, b := range c.bodies {
		var req coltracepb.ExportTraceServiceRequest
		if err := proto.Unmarshal(b, &req); err != nil {
			t.Fatalf("the body is not an ExportTraceServiceRequest: %v", err)
		}
		out = append(out, &req)
	}
	return out
}

// stubs are spans with every field the encoding writes set, and every
// kind of attribute value.
func stubs() tracetest.SpanStubs {
	res := resource.NewWithAttributes("https://opentelemetry.io/schemas/1.26.0",
		attribute.String("service.name", "graft"), attribute.Int("pid", 42))
	tid := trace.TraceID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	ts, _ := trace.ParseTraceState("vendor=value")
	start := time.Unix(1_700_000_000, 123)
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: trace.SpanID{1, 1, 1, 1, 1, 1, 1, 1},
		TraceFlags: trace.FlagsSampled, TraceState: ts})
	parent := trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: trace.SpanID{2, 2, 2, 2, 2, 2, 2, 2},
		TraceFlags: trace.FlagsSampled, Remote: true})
	attrs := []attribute.KeyValue{
		attribute.String("s", "text"), attribute.String("empty", ""), attribute.Bool("t", true), attribute.Bool("f", false),
		attribute.Int64("i", -7), attribute.Int64("zero", 0), attribute.Float64("d", 2.5),
		attribute.BoolSlice("bs", []bool{true, false}), attribute.Int64Slice("is", []int64{1, -2}),
		attribute.Float64Slice("ds", []float64{0.5}), attribute.StringSlice("ss", []string{"a", ""}),
		{Key: "bytes", Value: attribute.ByteSliceValue([]byte{0, 1})},
		{Key: "slice", Value: attribute.SliceValue(attribute.StringValue("x"), attribute.IntValue(3))},
		{Key: "map", Value: attribute.MapValue(attribute.String("k", "v"))},
		{Key: "nothing"},
		attribute.String("long", strings.Repeat("x", 20000)), // a length of three bytes
	}
	scope := instrumentation.Scope{Name: "github.com/graftgql/graft/graftotel", Version: "1.2.3",
		SchemaURL: "https://opentelemetry.io/schemas/1.26.0", Attributes: attribute.NewSet(attribute.String("scope", "attr"))}
	return tracetest.SpanStubs{
		{
			Name: "query Posts", SpanContext: sc, Parent: parent, SpanKind: trace.SpanKindServer,
			StartTime: start, EndTime: start.Add(1500 * time.Microsecond), Attributes: attrs, DroppedAttributes: 2,
			Events: []sdktrace.Event{{Name: "graphql.parsed", Time: start.Add(time.Microsecond)},
				{Name: "exception", Time: start.Add(2 * time.Microsecond), Attributes: attrs[:2], DroppedAttributeCount: 1}},
			DroppedEvents: 3,
			Links:         []sdktrace.Link{{SpanContext: parent, Attributes: attrs[2:4], DroppedAttributeCount: 4}},
			DroppedLinks:  5, Status: sdktrace.Status{Code: codes.Error, Description: "BAD_USER_INPUT"},
			Resource: res, InstrumentationScope: scope,
		},
		{
			Name: "child", SpanContext: trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: trace.SpanID{3}, TraceFlags: trace.FlagsSampled}),
			Parent: sc, SpanKind: trace.SpanKindInternal, StartTime: start, EndTime: start,
			Status: sdktrace.Status{Code: codes.Ok}, Resource: res, InstrumentationScope: scope,
		},
		{
			Name: "other scope", SpanContext: trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: trace.SpanID{4}, TraceFlags: trace.FlagsSampled}),
			SpanKind: trace.SpanKindClient, StartTime: start, EndTime: start.Add(time.Second),
			Resource: res, InstrumentationScope: instrumentation.Scope{Name: "net/http"},
		},
	}
}

// TestEncodingMatchesSDKExporter sends the same spans through the SDK's
// OTLP/HTTP exporter and through a Processor: the collector decodes the
// same request from both.
func TestEncodingMatchesSDKExporter(t *testing.T) {
	spans := stubs().Snapshots()
	var sdk, own collector
	exp, err := otlptracehttp.New(context.Background(), otlptracehttp.WithEndpointURL(sdk.start(t)))
	if err != nil {
		t.Fatal(err)
	}
	if err := exp.ExportSpans(context.Background(), spans); err != nil {
		t.Fatal(err)
	}
	p := New(Config{URL: own.start(t), Delay: time.Hour})
	for _, s := range spans {
		p.OnEnd(s)
	}
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	want, got := sdk.requests(t), own.requests(t)
	if len(want) != 1 || len(got) != 1 {
		t.Fatalf("exports: SDK %d, own %d; want 1 each", len(want), len(got))
	}
	if !proto.Equal(want[0], got[0]) {
		t.Errorf("the requests differ:\nSDK: %v\nown: %v", want[0], got[0])
	}
	if n := len(got[0].GetResourceSpans()[0].GetScopeSpans()); n != 2 {
		t.Errorf("%d scopes, want 2", n)
	}
	if h := own.headers[0].Get("Content-Type"); h != "application/x-protobuf" {
		t.Errorf("Content-Type %q", h)
	}
}

// span returns a sampled (or not) span of the provider's resource.
func span(name string, sampled bool) sdktrace.ReadOnlySpan {
	var f trace.TraceFlags
	if sampled {
		f = trace.FlagsSampled
	}
	return tracetest.SpanStub{Name: name, SpanContext: trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: trace.TraceID{1}, SpanID: trace.SpanID{1}, TraceFlags: f}), Resource: resource.Empty()}.Snapshot()
}

func names(reqs []*coltracepb.ExportTraceServiceRequest) []string {
	var out []string
	for _, r := range reqs {
		for _, rs := range r.GetResourceSpans() {
			for _, ss := range rs.GetScopeSpans() {
				for _, s := range ss.GetSpans() {
					out = append(out, s.GetName())
				}
			}
		}
	}
	return out
}

// TestProcessorExports: sampled spans only, in batches of MaxBatch, with
// the configured headers; what waits goes on ForceFlush and Shutdown;
// what ends after Shutdown is dropped.
func TestProcessorExports(t *testing.T) {
	var c collector
	p := New(Config{URL: c.start(t), Delay: time.Hour, MaxBatch: 2, Headers: map[string]string{"Authorization": "Bearer k"}})
	p.OnEnd(span("a", true))
	p.OnEnd(span("unsampled", false))
	p.OnEnd(span("b", true)) // a full batch: exported without waiting
	waitFor(t, func() bool { return len(c.requests(t)) == 1 })
	p.OnEnd(span("c", true))
	if err := p.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	p.OnEnd(span("d", true))
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	p.OnEnd(span("late", true))
	reqs := c.requests(t)
	if got := names(reqs); len(reqs) != 3 || len(got) != 4 || got[0] != "a" || got[1] != "b" || got[2] != "c" || got[3] != "d" {
		t.Errorf("exported %d requests of %v, want [a b] [c] [d]", len(reqs), got)
	}
	if h := c.headers[0].Get("Authorization"); h != "Bearer k" {
		t.Errorf("Authorization %q", h)
	}
	if d := p.Dropped(); d != 1 {
		t.Errorf("dropped %d, want 1 (the span after Shutdown)", d)
	}
}

// TestProcessorRetries: an export the collector asks to retry (503 with
// Retry-After) is sent again, once, and not dropped.
func TestProcessorRetries(t *testing.T) {
	c := collector{status: func(n int) int {
		if n == 0 {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	}}
	p := New(Config{URL: c.start(t), Delay: time.Hour})
	p.OnEnd(span("a", true))
	if err := p.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	_ = p.Shutdown(context.Background())
	if got := names(c.requests(t)); len(got) != 1 || c.calls.Load() != 2 || p.Dropped() != 0 {
		t.Errorf("exported %v in %d calls, dropped %d; want [a] in 2, 0", got, c.calls.Load(), p.Dropped())
	}
}

// TestProcessorBoundedUnderStalledCollector sends the attack: a collector
// that never answers. The spans held, waiting or being exported, stop at
// MaxQueue, every one beyond is dropped and counted, and Shutdown returns
// with its context.
func TestProcessorBoundedUnderStalledCollector(t *testing.T) {
	release := make(chan struct{})
	var calls atomic.Int32
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		<-release
	}))
	defer s.Close()
	defer close(release)
	p := New(Config{URL: s.URL, Delay: time.Hour, MaxBatch: 4, MaxQueue: 8, Timeout: time.Hour})
	for range 4 {
		p.OnEnd(span("x", true)) // a full batch: its export stalls
	}
	waitFor(t, func() bool { return calls.Load() == 1 })
	for range 20 {
		p.OnEnd(span("x", true))
	}
	p.mu.Lock()
	held, ready := p.held, len(p.ready)
	p.mu.Unlock()
	if held != 8 || ready != 1 || p.Dropped() != 16 {
		t.Errorf("held %d spans (%d batches ready) and dropped %d, want 8 (1) and 16", held, ready, p.Dropped())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := p.Shutdown(ctx); err != context.DeadlineExceeded {
		t.Errorf("Shutdown: %v, want the context's deadline", err)
	}
}

// TestProcessorBoundsBytes sends spans with large attributes to a
// collector that never answers: the bytes held stop at MaxBytes, under
// MaxQueue spans, and every span beyond is dropped and counted.
func TestProcessorBoundsBytes(t *testing.T) {
	release := make(chan struct{})
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release }))
	defer s.Close()
	defer close(release)
	p := New(Config{URL: s.URL, Delay: time.Hour, MaxBytes: 100 << 10, Timeout: time.Hour})
	big := tracetest.SpanStub{Name: "big", SpanContext: trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: trace.TraceID{1}, SpanID: trace.SpanID{1}, TraceFlags: trace.FlagsSampled}), Resource: resource.Empty(),
		Attributes: []attribute.KeyValue{attribute.String("v", strings.Repeat("x", 10<<10))}}.Snapshot()
	for range 50 {
		p.OnEnd(big)
	}
	p.mu.Lock()
	held, bytes := p.held, p.bytes
	p.mu.Unlock()
	if held != 9 || bytes > 100<<10 || p.Dropped() != 41 {
		t.Errorf("held %d spans of %d bytes, dropped %d; want 9 within 100 KiB, 41 dropped", held, bytes, p.Dropped())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	_ = p.Shutdown(ctx)
}

// TestProcessorBatchesAtMostMaxBatch: spans that end while an export is
// under way go in exports of at most MaxBatch spans.
func TestProcessorBatchesAtMostMaxBatch(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	var sizes []int
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release
		b, _ := io.ReadAll(r.Body)
		var req coltracepb.ExportTraceServiceRequest
		if err := proto.Unmarshal(b, &req); err != nil {
			t.Error(err)
		}
		mu.Lock()
		sizes = append(sizes, len(names([]*coltracepb.ExportTraceServiceRequest{&req})))
		mu.Unlock()
	}))
	defer s.Close()
	p := New(Config{URL: s.URL, Delay: time.Hour, MaxBatch: 3})
	for range 10 {
		p.OnEnd(span("x", true))
	}
	close(release)
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	total := 0
	for _, n := range sizes {
		if n > 3 {
			t.Errorf("an export of %d spans, want at most 3", n)
		}
		total += n
	}
	if total != 10 || p.Dropped() != 0 {
		t.Errorf("exports of %v spans, dropped %d; want 10 in all, none dropped", sizes, p.Dropped())
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for range 500 {
		if ok() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("timed out waiting")
}

// TestProcessorReportsRefusedBatch: a batch the collector refuses (400)
// is not retried; its spans are dropped, counted and reported.
func TestProcessorReportsRefusedBatch(t *testing.T) {
	c := collector{status: func(int) int { return http.StatusBadRequest }}
	var mu sync.Mutex
	var reported []string
	p := New(Config{URL: c.start(t), Delay: time.Hour, Error: func(err error) {
		mu.Lock()
		defer mu.Unlock()
		reported = append(reported, err.Error())
	}})
	p.OnEnd(span("a", true))
	p.OnEnd(span("b", true))
	if err := p.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	_ = p.Shutdown(context.Background())
	mu.Lock()
	defer mu.Unlock()
	if c.calls.Load() != 1 || p.Dropped() != 2 || len(reported) != 1 || !strings.Contains(reported[0], "2 spans not exported: 400") {
		t.Errorf("%d calls, %d dropped, reported %q; want 1 call, 2 dropped, one report", c.calls.Load(), p.Dropped(), reported)
	}
}

// TestProcessorConcurrentSpans: spans ending on many goroutines at once
// are each exported once.
func TestProcessorConcurrentSpans(t *testing.T) {
	var c collector
	p := New(Config{URL: c.start(t), Delay: time.Millisecond, MaxBatch: 7, MaxQueue: 10000})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 100 {
				p.OnEnd(span(strconv.Itoa(g*100+i), true))
			}
		})
	}
	wg.Wait()
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, n := range names(c.requests(t)) {
		if seen[n] {
			t.Fatalf("span %s exported twice", n)
		}
		seen[n] = true
	}
	if len(seen) != 800 || p.Dropped() != 0 {
		t.Errorf("exported %d spans, dropped %d; want 800, 0", len(seen), p.Dropped())
	}
}
