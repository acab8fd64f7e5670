package graftotel_test

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/blog"
	graftotel "github.com/graftgql/graft/graftotel"
)

// TestUnsampledRequestCost: a request the sampler leaves out starts its
// request span only (no phase spans, no attributes, no state of its own)
// and skips its phases, so tracing at a low ratio costs two allocations
// beside none with the SDK's provider (the SDK's span and its context)
// and none with graftotel's, which decides before the SDK (a span that is
// its own context, in memory the request's state keeps for it); a sampled
// request still records its phases, as events of its span.
func TestUnsampledRequestCost(t *testing.T) {
	s, err := blog.Schema()
	if err != nil {
		t.Fatal(err)
	}
	allocs := func(sampler sdktrace.Sampler, rec *tracetest.SpanRecorder, decided bool) float64 {
		var cfg graft.Config
		if sampler != nil {
			var tp trace.TracerProvider
			if decided {
				dtp := graftotel.NewTracerProvider(sampler, sdktrace.WithSpanProcessor(rec))
				defer func() { _ = dtp.Shutdown(context.Background()) }()
				tp = dtp
			} else {
				stp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sampler), sdktrace.WithSpanProcessor(rec))
				defer func() { _ = stp.Shutdown(context.Background()) }()
				tp = stp
			}
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
	plain := allocs(nil, nil, false)
	// With the SDK's provider, the SDK's span and its context; with
	// graftotel's, none.
	for _, c := range []struct {
		name    string
		decided bool
		max     float64
	}{{"sdk", false, 2}, {"decided", true, 0}} {
		rec := tracetest.NewSpanRecorder()
		unsampled := allocs(sdktrace.ParentBased(sdktrace.NeverSample()), rec, c.decided)
		// Under the race detector sync.Pool drops values at random, so
		// the count is checked only without it (.ci/run runs this test
		// so too).
		if extra := unsampled - plain; !raceEnabled && extra > c.max {
			t.Errorf("%s: an unsampled request costs %.0f allocations more than none (%.0f against %.0f), want at most %.0f", c.name, extra, unsampled, plain, c.max)
		}
		if n := len(rec.Started()) + len(rec.Ended()); n != 0 {
			t.Errorf("%s: %d spans recorded for unsampled requests", c.name, n)
		}
		sampled := tracetest.NewSpanRecorder()
		allocs(sdktrace.AlwaysSample(), sampled, c.decided)
		names := map[string]bool{}
		for _, sp := range sampled.Ended() {
			names[sp.Name()] = true
			for _, e := range sp.Events() {
				names[e.Name] = true
			}
		}
		for _, want := range []string{"graphql.parsed", "graphql.executed", "query"} {
			if !names[want] {
				t.Errorf("%s: sampled requests lack the span or event %q (have %v)", c.name, want, names)
			}
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
