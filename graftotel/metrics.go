package graftotel

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel/attribute"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"

	"github.com/graftgql/graft"
)

// instruments are the metrics graft records.
type instruments struct {
	sets      attrSets
	meter     metric.Meter
	requests  metric.Int64Counter
	duration  metric.Float64Histogram
	errors    metric.Int64Counter
	inFlight  metric.Int64UpDownCounter
	persisted metric.Int64Counter
	documents metric.Int64Counter
	names     *nameBound
	codes     *nameBound
}

// DurationBoundaries are the bucket boundaries of the request-duration
// histogram, in seconds: those the HTTP semantic conventions advise for
// http.server.request.duration.
var DurationBoundaries = []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10}

func newInstruments(m metric.Meter) (*instruments, error) {
	in := &instruments{meter: m, names: newNameBound(0, nil), codes: newNameBound(DefaultMaxOperationNames, nil)}
	var err error
	if in.requests, err = m.Int64Counter("graphql.server.requests", metric.WithDescription("GraphQL requests served"),
		metric.WithUnit("{request}")); err != nil {
		return nil, err
	}
	if in.duration, err = m.Float64Histogram("graphql.server.request.duration", metric.WithDescription("Duration of GraphQL requests"),
		metric.WithUnit("s"), metric.WithExplicitBucketBoundaries(DurationBoundaries...)); err != nil {
		return nil, err
	}
	if in.errors, err = m.Int64Counter("graphql.server.errors", metric.WithDescription("GraphQL errors answered, by code"),
		metric.WithUnit("{error}")); err != nil {
		return nil, err
	}
	if in.inFlight, err = m.Int64UpDownCounter("graphql.server.active_requests", metric.WithDescription("GraphQL requests being served"),
		metric.WithUnit("{request}")); err != nil {
		return nil, err
	}
	if in.persisted, err = m.Int64Counter("graphql.server.persisted_queries", metric.WithDescription("Persisted-query lookups, by result (hit or miss)"),
		metric.WithUnit("{lookup}")); err != nil {
		return nil, err
	}
	if in.documents, err = m.Int64Counter("graphql.server.document_cache", metric.WithDescription("Document-cache lookups, by result (hit or miss)"),
		metric.WithUnit("{lookup}")); err != nil {
		return nil, err
	}
	return in, nil
}

// Attribute sets of the measurements, built once: the fixed ones here,
// the per-operation ones on first use.
var (
	documentHit  = metric.WithAttributeSet(attribute.NewSet(attribute.String("result", "hit")))
	documentMiss = metric.WithAttributeSet(attribute.NewSet(attribute.String("result", "miss")))
)

// maxAttrSetBytes bounds the bytes of the attribute values whose sets are
// kept: operation names and error codes come from clients and resolvers,
// so past it a set is built per measurement instead of kept.
const maxAttrSetBytes = 64 << 10

// attrSets caches the attribute set of each operation (name, type and
// outcome), error code and persisted-query result, up to maxAttrSetBytes.
type attrSets struct {
	mu    sync.RWMutex
	sets  map[setKey]metric.MeasurementOption
	bytes int
}

// setKey names an attribute set: its kind ("op", "code", "pq") and values.
type setKey struct{ kind, a, b, c string }

func (k setKey) size() int { return len(k.a) + len(k.b) + len(k.c) }

// get returns the set of the attributes kvs, which key names.
func (a *attrSets) get(key setKey, kvs ...attribute.KeyValue) metric.MeasurementOption {
	a.mu.RLock()
	o, ok := a.sets[key]
	a.mu.RUnlock()
	if ok {
		return o
	}
	o = metric.WithAttributeSet(attribute.NewSet(kvs...))
	a.mu.Lock()
	if a.sets == nil {
		a.sets = make(map[setKey]metric.MeasurementOption)
	}
	if _, ok := a.sets[key]; !ok && a.bytes+key.size() <= maxAttrSetBytes {
		a.sets[key] = o
		a.bytes += key.size()
	}
	a.mu.Unlock()
	return o
}

// record measures one answered request.
func (m *instruments) record(ctx context.Context, ev *graft.HookEvent, d time.Duration) {
	if ev.Received {
		m.inFlight.Add(ctx, -1) // counted up in the Before of PhaseReceived
	}
	outcome := "success"
	if ev.ErrorCount > 0 {
		outcome = "error"
	}
	opType := ev.OperationType
	if opType == "" {
		opType = "unknown"
	}
	name := m.names.name(ev.OperationName, ev.PersistedQuery == "hit")
	set := m.sets.get(setKey{"op", name, opType, outcome},
		attribute.String("graphql.operation.name", name),
		attribute.String("graphql.operation.type", opType), attribute.String("outcome", outcome))
	m.requests.Add(ctx, 1, set)
	m.duration.Record(ctx, d.Seconds(), set)
	for _, c := range ev.ErrorCodes {
		if c == "" {
			c = "UNKNOWN"
		}
		c = m.codes.name(c, true)
		m.errors.Add(ctx, 1, m.sets.get(setKey{kind: "code", a: c}, attribute.String("code", c)))
	}
	if ev.PersistedQuery != "" {
		m.persisted.Add(ctx, 1, m.sets.get(setKey{kind: "pq", a: ev.PersistedQuery}, attribute.String("result", ev.PersistedQuery)))
	}
	if ev.OperationType != "" { // the document parsed and validated
		res := documentMiss
		if ev.DocumentCached {
			res = documentHit
		}
		m.documents.Add(ctx, 1, res)
	}
}

func (m *instruments) observeSubscriptions(r *graft.Router) error {
	if r == nil {
		return errNoRouter
	}
	_, err := m.meter.Int64ObservableGauge("graphql.server.subscriptions", metric.WithDescription("Open subscriptions"),
		metric.WithUnit("{subscription}"), metric.WithInt64Callback(func(_ context.Context, o metric.Int64Observer) error {
			o.Observe(int64(r.OpenSubscriptions()))
			return nil
		}))
	return err
}

// PrometheusHandler returns a MeterProvider whose metrics are served in
// the Prometheus text format by the returned handler (mount it at
// /metrics), with its own registry. The registry also holds the Go
// runtime's and the process's metrics (go_*, process_*); the
// instrumentation scope is not added as otel_scope_* labels to every
// series.
func PrometheusHandler() (*sdkmetric.MeterProvider, http.Handler, error) {
	reg := prometheus.NewRegistry()
	if err := reg.Register(collectors.NewGoCollector()); err != nil {
		return nil, nil, err
	}
	if err := reg.Register(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})); err != nil {
		return nil, nil, err
	}
	exp, err := otelprom.New(otelprom.WithRegisterer(reg), otelprom.WithoutScopeInfo())
	if err != nil {
		return nil, nil, err
	}
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(exp))
	return mp, promhttp.HandlerFor(reg, promhttp.HandlerOpts{}), nil
}

// otherName is the operation name recorded for operations past the bound
// or not known.
const otherName = "other"

// nameBound keeps the distinct values of a metric attribute bounded: up
// to max names are kept, the rest recorded as "other"; every value is cut
// to MaxLabelBytes.
type nameBound struct {
	max   int
	mu    sync.RWMutex
	names map[string]struct{}
}

// newNameBound returns the bound of max names (0: the default, negative:
// none) with known admitted first.
func newNameBound(max int, known []string) *nameBound {
	if max == 0 {
		max = DefaultMaxOperationNames
	}
	b := &nameBound{max: max, names: map[string]struct{}{}}
	for _, n := range known {
		if len(b.names) < b.max {
			b.names[cut(n)] = struct{}{}
		}
	}
	return b
}

// name returns the value to record for n: n itself (cut) when it is
// kept or, being known, can still be admitted; else "other". The empty
// name (an anonymous operation) is always kept.
func (b *nameBound) name(n string, known bool) string {
	if n == "" {
		return n
	}
	n = cut(n)
	b.mu.RLock()
	_, ok := b.names[n]
	b.mu.RUnlock()
	if ok {
		return n
	}
	if !known || b.max < 0 {
		return otherName
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.names[n]; ok {
		return n
	}
	if len(b.names) >= b.max {
		return otherName
	}
	n = strings.Clone(n) // not a slice of a request's buffer
	b.names[n] = struct{}{}
	return n
}

// cut shortens s to at most MaxLabelBytes, on a rune boundary.
func cut(s string) string {
	if len(s) <= MaxLabelBytes {
		return s
	}
	i := MaxLabelBytes
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}
