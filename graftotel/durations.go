package graftotel

import (
	"context"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// durations is the request-duration histogram of a MeterProvider that
// PrometheusHandler built, kept by graftotel and handed to the provider's
// reader as a metric producer: a request costs a bucket search and a few
// atomic adds on its series, where the SDK's synchronous Record
// normalizes the attribute set and looks the series up on every call,
// several times the cost. Its data are those of the SDK's cumulative
// explicit-bucket histogram with DurationBoundaries, without exemplars.
type durations struct {
	bounds []float64
	start  time.Time
	sets   attrSets // kindOp series, each with its hist
}

func newDurations() *durations {
	return &durations{bounds: append([]float64(nil), DurationBoundaries...), start: time.Now()}
}

// histCounts are one series' counts: every bucket's (the last past the
// last boundary), the sum and the extremes, as float64 bits. The count is
// the buckets' total, so a collection never reports a count its buckets
// do not add up to.
type histCounts struct {
	buckets  []atomic.Uint64
	sum      atomic.Uint64
	min, max atomic.Uint64
}

func newHistCounts(buckets int) *histCounts {
	h := &histCounts{buckets: make([]atomic.Uint64, buckets)}
	h.min.Store(math.Float64bits(math.Inf(1)))
	h.max.Store(math.Float64bits(math.Inf(-1)))
	return h
}

// hist returns the counts of the series key names, made on first use
// (past the series bound, the overflow series').
func (d *durations) hist(key setKey) *histCounts {
	s := d.sets.get(key)
	if h := s.hist.Load(); h != nil {
		return h
	}
	s.hist.CompareAndSwap(nil, newHistCounts(len(d.bounds)+1))
	return s.hist.Load()
}

// record counts v (seconds) in h: in the first bucket whose upper
// boundary is v or more, as the SDK counts.
func (d *durations) record(h *histCounts, v float64) {
	i := 0
	for i < len(d.bounds) && v > d.bounds[i] {
		i++
	}
	h.buckets[i].Add(1)
	for {
		old := h.sum.Load()
		if h.sum.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+v)) {
			break
		}
	}
	for old := h.min.Load(); v < math.Float64frombits(old) && !h.min.CompareAndSwap(old, math.Float64bits(v)); {
		old = h.min.Load()
	}
	for old := h.max.Load(); v > math.Float64frombits(old) && !h.max.CompareAndSwap(old, math.Float64bits(v)); {
		old = h.max.Load()
	}
}

// Produce returns the histogram's series that counted something
// (sdkmetric.Producer).
func (d *durations) Produce(context.Context) ([]metricdata.ScopeMetrics, error) {
	now := time.Now()
	var points []metricdata.HistogramDataPoint[float64]
	d.sets.each(func(_ string, s *series) {
		h := s.hist.Load()
		if h == nil {
			return
		}
		counts := make([]uint64, len(h.buckets))
		var count uint64
		for i := range h.buckets {
			counts[i] = h.buckets[i].Load()
			count += counts[i]
		}
		if count == 0 {
			return
		}
		points = append(points, metricdata.HistogramDataPoint[float64]{Attributes: s.attrs, StartTime: d.start, Time: now,
			Count: count, Bounds: d.bounds, BucketCounts: counts, Sum: math.Float64frombits(h.sum.Load()),
			Min: metricdata.NewExtrema(math.Float64frombits(h.min.Load())), Max: metricdata.NewExtrema(math.Float64frombits(h.max.Load()))})
	})
	if len(points) == 0 {
		return nil, nil
	}
	return []metricdata.ScopeMetrics{{Scope: instrumentation.Scope{Name: ScopeName}, Metrics: []metricdata.Metrics{{
		Name: durationName, Description: durationDescription, Unit: "s",
		Data: metricdata.Histogram[float64]{Temporality: metricdata.CumulativeTemporality, DataPoints: points},
	}}}}, nil
}

// produced maps the MeterProviders PrometheusHandler built to their
// duration histograms, for New to find; an entry goes with its provider.
var produced sync.Map // weak.Pointer[sdkmetric.MeterProvider] -> *durations

// registerDurations makes d the duration histogram New finds for mp.
func registerDurations(mp *sdkmetric.MeterProvider, d *durations) {
	key := weak.Make(mp)
	produced.Store(key, d)
	runtime.AddCleanup(mp, func(k weak.Pointer[sdkmetric.MeterProvider]) { produced.Delete(k) }, key)
}

// durationsOf returns the duration histogram kept for mp, nil when its
// provider records the histogram through the SDK.
func durationsOf(mp metric.MeterProvider) *durations {
	sm, ok := mp.(*sdkmetric.MeterProvider)
	if !ok {
		return nil
	}
	if d, ok := produced.Load(weak.Make(sm)); ok {
		return d.(*durations)
	}
	return nil
}
