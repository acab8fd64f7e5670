package graftotel_test

import (
	"context"
	"testing"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/blog"
	graftotel "github.com/graftgql/graft/graftotel"
	"github.com/graftgql/graft/internal/workload"
)

// BenchmarkQ2 runs the shared q2 through Router.Execute without
// instrumentation ("plain"), with per-operation tracing only ("tracing":
// the request's span with its phases as events, no resolver spans, every
// trace sampled, exported in batches to an exporter that discards them),
// with a child span per phase ("tracing-phase-spans", PhaseSpans), and with
// metrics only ("metrics": the SDK's meter provider with a manual
// reader, as behind the Prometheus endpoint).
func BenchmarkQ2(b *testing.B) {
	q, err := workload.ReadFile("q2.graphql")
	if err != nil {
		b.Skipf("q2: %v", err)
	}
	s, err := blog.Schema()
	if err != nil {
		b.Fatal(err)
	}
	run := func(b *testing.B, cfg graft.Config) {
		r, err := graft.NewRouter(s, nil, cfg)
		if err != nil {
			b.Fatal(err)
		}
		req := graft.Request{Query: string(q)}
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			if status, _ := r.Execute(ctx, req); status != 200 {
				b.Fatal(status)
			}
		}
	}
	b.Run("plain", func(b *testing.B) { run(b, graft.Config{}) })
	b.Run("tracing", func(b *testing.B) {
		tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()),
			sdktrace.WithBatcher(tracetest.NewNoopExporter()))
		defer func() { _ = tp.Shutdown(context.Background()) }()
		in, err := graftotel.New(graftotel.Options{TracerProvider: tp, NoMetrics: true})
		if err != nil {
			b.Fatal(err)
		}
		var cfg graft.Config
		in.Install(&cfg)
		run(b, cfg)
	})
	b.Run("tracing-phase-spans", func(b *testing.B) {
		tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()),
			sdktrace.WithBatcher(tracetest.NewNoopExporter()))
		defer func() { _ = tp.Shutdown(context.Background()) }()
		in, err := graftotel.New(graftotel.Options{TracerProvider: tp, NoMetrics: true, PhaseSpans: true})
		if err != nil {
			b.Fatal(err)
		}
		var cfg graft.Config
		in.Install(&cfg)
		run(b, cfg)
	})
	b.Run("metrics", func(b *testing.B) {
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
		defer func() { _ = mp.Shutdown(context.Background()) }()
		in, err := graftotel.New(graftotel.Options{MeterProvider: mp, NoTracing: true})
		if err != nil {
			b.Fatal(err)
		}
		var cfg graft.Config
		in.Install(&cfg)
		run(b, cfg)
	})
}

// BenchmarkQ1 serves q1 ({ hello }) through the router as cmd/graft
// does with its telemetry: nothing ("plain"), tracing with
// parentbased_traceidratio at 1% ("tracing-1pct", 99 requests in 100 not
// sampled), and Prometheus-style metrics ("metrics"). q1 does almost
// nothing else, so the difference is the instrumentation's own cost.
func BenchmarkQ1(b *testing.B) {
	s, err := blog.Schema()
	if err != nil {
		b.Fatal(err)
	}
	run := func(b *testing.B, cfg graft.Config) {
		r, err := graft.NewRouter(s, nil, cfg)
		if err != nil {
			b.Fatal(err)
		}
		req := graft.Request{Query: "{ hello }"}
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			if status, _ := r.Execute(ctx, req); status != 200 {
				b.Fatal(status)
			}
		}
	}
	b.Run("plain", func(b *testing.B) { run(b, graft.Config{}) })
	b.Run("tracing-1pct", func(b *testing.B) {
		tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.TraceIDRatioBased(0.01))),
			sdktrace.WithBatcher(tracetest.NewNoopExporter()))
		defer func() { _ = tp.Shutdown(context.Background()) }()
		in, err := graftotel.New(graftotel.Options{TracerProvider: tp, NoMetrics: true})
		if err != nil {
			b.Fatal(err)
		}
		var cfg graft.Config
		in.Install(&cfg)
		run(b, cfg)
	})
	b.Run("metrics", func(b *testing.B) {
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
		defer func() { _ = mp.Shutdown(context.Background()) }()
		in, err := graftotel.New(graftotel.Options{MeterProvider: mp, NoTracing: true})
		if err != nil {
			b.Fatal(err)
		}
		var cfg graft.Config
		in.Install(&cfg)
		run(b, cfg)
	})
}
