package graftotel

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
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
}

func newInstruments(m metric.Meter) (*instruments, error) {
	in := &instruments{meter: m}
	var err error
	if in.requests, err = m.Int64Counter("graphql.server.requests", metric.WithDescription("GraphQL requests served"),
		metric.WithUnit("{request}")); err != nil {
		return nil, err
	}
	if in.duration, err = m.Float64Histogram("graphql.server.request.duration", metric.WithDescription("Duration of GraphQL requests"),
		metric.WithUnit("s")); err != nil {
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
	set := m.sets.get(setKey{"op", ev.OperationName, opType, outcome},
		attribute.String("graphql.operation.name", ev.OperationName),
		attribute.String("graphql.operation.type", opType), attribute.String("outcome", outcome))
	m.requests.Add(ctx, 1, set)
	m.duration.Record(ctx, d.Seconds(), set)
	for _, c := range ev.ErrorCodes {
		if c == "" {
			c = "UNKNOWN"
		}
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
// /metrics), with its own registry.
func PrometheusHandler() (*sdkmetric.MeterProvider, http.Handler, error) {
	reg := prometheus.NewRegistry()
	exp, err := otelprom.New(otelprom.WithRegisterer(reg))
	if err != nil {
		return nil, nil, err
	}
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(exp))
	return mp, promhttp.HandlerFor(reg, promhttp.HandlerOpts{}), nil
}
