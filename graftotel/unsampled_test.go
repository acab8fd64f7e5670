package graftotel_test

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/blog"
	graftotel "github.com/graftgql/graft/graftotel"
)

// TestUnsampledRequestCost: a request the sampler leaves out starts its
// request span only (no phase spans, no attributes, no state of its own)
// and skips its phases, so tracing at a low ratio costs two allocations
// beside none (the SDK's span and its context); a sampled request still
// records its phases.
func TestUnsampledRequestCost(t *testing.T) {
	s, err := blog.Schema()
	if err != nil {
		t.Fatal(err)
	}
	allocs := func(sampler sdktrace.Sampler, rec *tracetest.SpanRecorder) float64 {
		var cfg graft.Config
		if sampler != nil {
			tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sampler), sdktrace.WithSpanProcessor(rec))
			defer func() { _ = tp.Shutdown(context.Background()) }()
			in, err := graftotel.New(graftotel.Options{TracerProvider: tp, NoMetrics: true})
			if err != nil {
				t.Fatal(err)
			}
			in.Install(&cfg)
		}
		r, err := graft.NewRouter(s, nil, cfg)
		if err != nil {
			t.Fatal(err)
		}
		req := graft.Request{Query: "{ hello authors(first: 1) { name } }"}
		return testing.AllocsPerRun(200, func() {
			if status, _ := r.Execute(context.Background(), req); status != 200 {
				t.Fatal(status)
			}
		})
	}
	rec := tracetest.NewSpanRecorder()
	plain := allocs(nil, nil)
	unsampled := allocs(sdktrace.ParentBased(sdktrace.NeverSample()), rec)
	// Under the race detector sync.Pool drops values at random, so the
	// count is checked only without it (.ci/run runs this test so too).
	if extra := unsampled - plain; !raceEnabled && extra > 2 {
		t.Errorf("an unsampled request costs %.0f allocations more than none (%.0f against %.0f), want at most 2", extra, unsampled, plain)
	}
	if n := len(rec.Ended()); n != 0 {
		t.Errorf("%d spans ended for unsampled requests", n)
	}
	sampled := tracetest.NewSpanRecorder()
	allocs(sdktrace.AlwaysSample(), sampled)
	names := map[string]bool{}
	for _, sp := range sampled.Ended() {
		names[sp.Name()] = true
	}
	for _, want := range []string{"graphql.parsed", "graphql.executed", "query"} {
		if !names[want] {
			t.Errorf("sampled requests lack the span %q (have %v)", want, names)
		}
	}
}

// TestMetricsRequestCost: with metrics on, a request costs no allocation
// more than with none: the counters are atomic adds on series kept by
// attribute set, and the histogram is recorded with options built once.
func TestMetricsRequestCost(t *testing.T) {
	s, err := blog.Schema()
	if err != nil {
		t.Fatal(err)
	}
	allocs := func(cfg graft.Config) float64 {
		r, err := graft.NewRouter(s, nil, cfg)
		if err != nil {
			t.Fatal(err)
		}
		req := graft.Request{Query: "query Hello { hello authors(first: 1) { name } }"}
		return testing.AllocsPerRun(200, func() {
			if status, _ := r.Execute(context.Background(), req); status != 200 {
				t.Fatal(status)
			}
		})
	}
	plain := allocs(graft.Config{})
	mp, _, err := graftotel.PrometheusHandler()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = mp.Shutdown(context.Background()) }()
	in, err := graftotel.New(graftotel.Options{MeterProvider: mp, NoTracing: true, KnownOperations: []string{"Hello"}})
	if err != nil {
		t.Fatal(err)
	}
	var cfg graft.Config
	in.Install(&cfg)
	if extra := allocs(cfg) - plain; !raceEnabled && extra > 0 {
		t.Errorf("metrics cost %.0f allocations per request, want none", extra)
	}
}
