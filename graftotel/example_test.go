package graftotel_test

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/graftgql/graft"
	graftotel "github.com/graftgql/graft/graftotel"
	"github.com/graftgql/graft/schema"
)

// ExampleNewTracerProvider traces one request in a hundred. The sampler is
// asked before the SDK starts a span: the others record nothing, yet a
// client called from a resolver still sends their trace context, with the
// sampled flag cleared.
func ExampleNewTracerProvider() {
	exporter := tracetest.NewInMemoryExporter() // an OTLP exporter in a real service
	tp := graftotel.NewTracerProvider(sdktrace.ParentBased(sdktrace.TraceIDRatioBased(0.01)),
		sdktrace.WithBatcher(exporter))
	defer func() { _ = tp.Shutdown(context.Background()) }()

	in, err := graftotel.New(graftotel.Options{TracerProvider: tp, NoMetrics: true})
	if err != nil {
		panic(err)
	}
	var cfg graft.Config
	in.Install(&cfg)

	b := schema.New()
	schema.QueryNoArgs(b, "flags", func(ctx context.Context) (string, error) {
		c := propagation.MapCarrier{}
		propagation.TraceContext{}.Inject(ctx, c) // what an instrumented HTTP client sends
		return c["traceparent"][53:], nil         // the trace flags
	})
	s, err := b.Build()
	if err != nil {
		panic(err)
	}
	r, err := graft.NewRouter(s, nil, cfg)
	if err != nil {
		panic(err)
	}
	// A caller that did not sample its trace: the request follows it.
	ctx := trace.ContextWithRemoteSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: trace.TraceID{1}, SpanID: trace.SpanID{2}, Remote: true}))
	_, body := r.Execute(ctx, graft.Request{Query: "{ flags }"})
	fmt.Println(string(body))
	// Output: {"data":{"flags":"00"}}
}
