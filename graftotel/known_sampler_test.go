package graftotel

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// otherSampler is a sampler of the application's own.
type otherSampler struct{ sdktrace.Sampler }

// TestKnownSamplersDecideAsTheSDK: for each of the SDK's samplers the
// instrumentation reads, its decision is the sampler's own for every kind
// of parent (none, remote or local, sampled or not) and many trace IDs,
// and the trace state is the parent's; a sampler of the application's own,
// alone or inside ParentBased, is not read (it is asked).
func TestKnownSamplersDecideAsTheSDK(t *testing.T) {
	samplers := []sdktrace.Sampler{
		sdktrace.AlwaysSample(), sdktrace.NeverSample(),
		sdktrace.TraceIDRatioBased(0), sdktrace.TraceIDRatioBased(1), sdktrace.TraceIDRatioBased(0.01),
		sdktrace.TraceIDRatioBased(0.5), sdktrace.TraceIDRatioBased(1e-5),
		sdktrace.ParentBased(sdktrace.AlwaysSample()), sdktrace.ParentBased(sdktrace.NeverSample()),
		sdktrace.ParentBased(sdktrace.TraceIDRatioBased(0.01)), sdktrace.ParentBased(sdktrace.TraceIDRatioBased(0.3)),
		sdktrace.ParentBased(sdktrace.TraceIDRatioBased(0.3), sdktrace.WithRemoteParentNotSampled(sdktrace.AlwaysSample()),
			sdktrace.WithLocalParentSampled(sdktrace.NeverSample()), sdktrace.WithRemoteParentSampled(sdktrace.TraceIDRatioBased(0.7))),
	}
	ts, err := trace.ParseTraceState("vendor=x")
	if err != nil {
		t.Fatal(err)
	}
	parents := []trace.SpanContext{{}}
	for _, remote := range []bool{false, true} {
		for _, flags := range []trace.TraceFlags{0, trace.FlagsSampled} {
			parents = append(parents, trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{9}, SpanID: trace.SpanID{8},
				TraceFlags: flags, TraceState: ts, Remote: remote}))
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range samplers {
		k := knownSamplerOf(s)
		if k == nil {
			t.Errorf("%s: not read", s.Description())
			continue
		}
		kept := 0
		for i := range 2000 {
			var tid trace.TraceID
			binary.BigEndian.PutUint64(tid[:8], rng.Uint64())
			binary.BigEndian.PutUint64(tid[8:], rng.Uint64())
			psc := parents[i%len(parents)]
			ctx := trace.ContextWithSpanContext(context.Background(), psc)
			want := s.ShouldSample(sdktrace.SamplingParameters{ParentContext: ctx, TraceID: tid, Name: requestSpanName, Kind: trace.SpanKindServer})
			got := k.samples(psc, tid)
			if got != (want.Decision == sdktrace.RecordAndSample) || want.Decision == sdktrace.RecordOnly || len(want.Attributes) != 0 {
				t.Fatalf("%s, parent %+v, trace %s: decided %v, the sampler %v", s.Description(), psc, tid, got, want.Decision)
			}
			if want.Tracestate.String() != psc.TraceState().String() {
				t.Fatalf("%s: the sampler's trace state %q is not the parent's %q", s.Description(), want.Tracestate, psc.TraceState())
			}
			if got {
				kept++
			}
		}
		t.Logf("%s: %d of 2000 kept", s.Description(), kept)
	}
	for _, s := range []sdktrace.Sampler{otherSampler{sdktrace.AlwaysSample()}, sdktrace.ParentBased(otherSampler{sdktrace.AlwaysSample()}),
		sdktrace.ParentBased(sdktrace.AlwaysSample(), sdktrace.WithLocalParentNotSampled(otherSampler{sdktrace.NeverSample()}))} {
		if knownSamplerOf(s) != nil {
			t.Errorf("%s: read as one of the SDK's samplers", s.Description())
		}
	}
}
