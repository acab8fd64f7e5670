package graftotel_test

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/internal/workload"
	graftotel "github.com/graftgql/graft/otel"
)

// BenchmarkQ2 runs the shared q2 through Router.Execute without
// instrumentation and with per-operation tracing (request and phase
// spans, sampled, exported in batches to a no-op exporter).
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
		tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
		defer func() { _ = tp.Shutdown(context.Background()) }()
		in, err := graftotel.New(graftotel.Options{TracerProvider: tp, NoMetrics: true})
		if err != nil {
			b.Fatal(err)
		}
		var cfg graft.Config
		in.Install(&cfg)
		run(b, cfg)
	})
}
