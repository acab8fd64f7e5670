package graftotel

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/metric/metricdata/metricdatatest"

	"github.com/graftgql/graft"
)

// TestAttrSetsBoundedByBytes: operation names come from clients, so the
// kept series stop growing at maxAttrSetBytes; past it a kind's
// measurements go to its overflow series.
func TestAttrSetsBoundedByBytes(t *testing.T) {
	var a attrSets
	name := strings.Repeat("n", 1000)
	for i := range 200 {
		k := setKey{kind: "op", a: name + string(rune('a'+i%26)) + strings.Repeat("x", i/26), b: "query", c: "success"}
		if o := a.get(k); o == nil {
			t.Fatalf("call %d: no set", i)
		}
	}
	if a.bytes > maxAttrSetBytes || len(a.kept()) == 0 || len(a.kept()) >= 200 {
		t.Fatalf("%d sets of %d bytes kept, want fewer than 200 within %d bytes", len(a.kept()), a.bytes, maxAttrSetBytes)
	}
	over := a.kept()[overflowKey("op")]
	if over == nil || a.get(setKey{kind: "op", a: name + "late", b: "query", c: "success"}) != over {
		t.Fatal("a series past the bound is not counted in the overflow series")
	}
}

// durationSamples are requests of three series, with durations on, just
// past and between the histogram's boundaries, and past the last.
var durationSamples = []struct {
	name   string
	errors int
	d      time.Duration
}{
	{"A", 0, 0}, {"A", 0, time.Microsecond}, {"A", 0, 5 * time.Millisecond}, {"A", 0, 5*time.Millisecond + 1},
	{"A", 0, 10 * time.Millisecond}, {"A", 0, 300 * time.Millisecond}, {"A", 1, time.Second}, {"A", 1, 3 * time.Second},
	{"B", 0, 10 * time.Second}, {"B", 0, 12 * time.Second}, {"B", 0, 2 * time.Minute}, {"B", 0, 42 * time.Millisecond},
}

// recordSamples records durationSamples through in's metrics.
func recordSamples(in *Instrumentation) {
	for _, s := range durationSamples {
		ev := &graft.HookEvent{Phase: graft.PhaseAnswered, OperationType: "query", OperationName: s.name, ErrorCount: s.errors}
		in.m.record(context.Background(), ev, s.d)
	}
}

// sdkPrometheus is a MeterProvider built as an application would, with
// the Prometheus exporter: its duration histogram is the SDK's.
func sdkPrometheus(t *testing.T) (*sdkmetric.MeterProvider, http.Handler) {
	t.Helper()
	reg := prometheus.NewRegistry()
	exp, err := otelprom.New(otelprom.WithRegisterer(reg), otelprom.WithoutScopeInfo())
	if err != nil {
		t.Fatal(err)
	}
	return sdkmetric.NewMeterProvider(sdkmetric.WithReader(exp)), promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
}

// TestDurationsAsTheSDK: the duration histogram graftotel keeps for a
// PrometheusHandler provider is the one the SDK keeps for the same
// requests: the same data points (buckets, count, sum, minimum, maximum,
// attributes) and the same lines on /metrics.
func TestDurationsAsTheSDK(t *testing.T) {
	sdkMP, sdkHandler := sdkPrometheus(t)
	kept, keptHandler, err := PrometheusHandler()
	if err != nil {
		t.Fatal(err)
	}
	var ins []*Instrumentation
	for _, mp := range []*sdkmetric.MeterProvider{sdkMP, kept} {
		in, err := New(Options{MeterProvider: mp, NoTracing: true, KnownOperations: []string{"A", "B"}})
		if err != nil {
			t.Fatal(err)
		}
		recordSamples(in)
		ins = append(ins, in)
	}
	if ins[0].m.durs != nil || ins[1].m.durs == nil {
		t.Fatal("the SDK's provider must record through the SDK, PrometheusHandler's through graftotel")
	}

	// The data points, against the SDK's read by a manual reader.
	reader := sdkmetric.NewManualReader()
	in, err := New(Options{MeterProvider: sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)), NoTracing: true,
		KnownOperations: []string{"A", "B"}})
	if err != nil {
		t.Fatal(err)
	}
	recordSamples(in)
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	var want metricdata.Metrics
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name == durationName {
				want = m
			}
		}
	}
	got, err := ins[1].m.durs.Produce(context.Background())
	if err != nil || len(got) != 1 || len(got[0].Metrics) != 1 {
		t.Fatalf("Produce: %v, %+v", err, got)
	}
	if got[0].Scope.Name != ScopeName {
		t.Errorf("scope %q", got[0].Scope.Name)
	}
	if n := len(want.Data.(metricdata.Histogram[float64]).DataPoints); n != 3 {
		t.Fatalf("the SDK kept %d series, want 3", n)
	}
	metricdatatest.AssertEqual(t, want, got[0].Metrics[0], metricdatatest.IgnoreTimestamp())

	// The lines an operator scrapes.
	lines := func(h http.Handler) []string {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
		var out []string
		for l := range strings.SplitSeq(rec.Body.String(), "\n") {
			if strings.Contains(l, "graphql_server_request_duration_seconds") {
				out = append(out, l)
			}
		}
		slices.Sort(out)
		return out
	}
	sdkLines, keptLines := lines(sdkHandler), lines(keptHandler)
	if len(sdkLines) != 3*(len(DurationBoundaries)+3)+2 || !slices.Equal(sdkLines, keptLines) {
		t.Errorf("/metrics differs from the SDK's:\n%s\nwant\n%s", strings.Join(keptLines, "\n"), strings.Join(sdkLines, "\n"))
	}
}

// TestDurationsConcurrent: requests recorded at once are all counted,
// in their buckets, with their exact sum.
func TestDurationsConcurrent(t *testing.T) {
	mp, _, err := PrometheusHandler()
	if err != nil {
		t.Fatal(err)
	}
	in, err := New(Options{MeterProvider: mp, NoTracing: true, KnownOperations: []string{"A"}})
	if err != nil {
		t.Fatal(err)
	}
	const workers, each = 8, 500
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				// Multiples of 1/256 s are whole nanoseconds and add up
				// exactly in any order.
				d := time.Duration(float64(time.Second) * float64(w*each+i) / 256)
				in.m.record(context.Background(), &graft.HookEvent{Phase: graft.PhaseAnswered, OperationType: "query", OperationName: "A"}, d)
			}
		})
	}
	wg.Wait()
	got, err := in.m.durs.Produce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p := got[0].Metrics[0].Data.(metricdata.Histogram[float64]).DataPoints[0]
	var wantSum float64
	wantBuckets := make([]uint64, len(DurationBoundaries)+1)
	for k := range workers * each {
		v := float64(k) / 256
		wantSum += v
		wantBuckets[sort.SearchFloat64s(DurationBoundaries, v)]++
	}
	maxV, _ := p.Max.Value()
	if minV, _ := p.Min.Value(); p.Count != workers*each || p.Sum != wantSum || !slices.Equal(p.BucketCounts, wantBuckets) ||
		minV != 0 || maxV != float64(workers*each-1)/256 {
		t.Errorf("count %d sum %v min %v max %v buckets %v, want %d %v 0 %v %v", p.Count, p.Sum, p.Min, p.Max, p.BucketCounts,
			workers*each, wantSum, float64(workers*each-1)/256, wantBuckets)
	}
}

// TestDurationsOverflow: once the series are at their bound, the
// durations of every operation past it are counted in the overflow
// series, as its requests are, not under the first such operation.
func TestDurationsOverflow(t *testing.T) {
	mp, _, err := PrometheusHandler()
	if err != nil {
		t.Fatal(err)
	}
	in, err := New(Options{MeterProvider: mp, NoTracing: true, KnownOperations: []string{"A", "B"}})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("n", 1000)
	for i := 0; in.m.sets.kept()[overflowKey(kindOp)] == nil; i++ {
		in.m.sets.get(setKey{kind: kindOp, a: long + strconv.Itoa(i), b: "query", c: "success"})
	}
	in.m.sets.bytes = maxAttrSetBytes // no room left for a short name either
	for _, name := range []string{"A", "B", "B"} {
		in.m.record(context.Background(), &graft.HookEvent{Phase: graft.PhaseAnswered, OperationType: "query", OperationName: name}, time.Second)
	}
	got, err := in.m.durs.Produce(context.Background())
	if err != nil || len(got) != 1 {
		t.Fatalf("Produce: %v, %+v", err, got)
	}
	points := got[0].Metrics[0].Data.(metricdata.Histogram[float64]).DataPoints
	if len(points) != 1 || points[0].Count != 3 || points[0].Attributes.Len() != 1 {
		t.Fatalf("data points %+v, want the overflow series alone with 3 requests", points)
	}
	if v, ok := points[0].Attributes.Value("otel.metric.overflow"); !ok || !v.AsBool() {
		t.Errorf("attributes %v, want otel.metric.overflow=true", points[0].Attributes.ToSlice())
	}
}
