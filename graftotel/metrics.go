package graftotel

import (
	"context"
	"github.com/graftgql/graft/internal/clip"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel/attribute"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"

	"github.com/graftgql/graft"
)

// instruments are the metrics graft records. The counters are counted
// in the instrumentation itself (an atomic add per measurement, on series
// kept in sets) and handed to the SDK when a reader collects, through
// observable instruments: a request costs the SDK one call, the
// duration histogram's.
type instruments struct {
	sets     attrSets
	meter    metric.Meter
	duration metric.Float64Histogram // nil when durs keeps the histogram
	durs     *durations
	names    *nameBound
	codes    *nameBound
	// inFlight and received are the unlabelled counts of
	// graphql.server.active_requests and graphql.server.request.body.size.
	inFlight atomic.Int64
	received atomic.Int64
	// The series of the lookup results, kept at hand.
	docHit, docMiss, pqHit, pqMiss *series
	// The observable instruments, by the kind of their series.
	requests, errors, persisted, documents metric.Int64ObservableCounter
	activeRequests                         metric.Int64ObservableUpDownCounter
	bodySize                               metric.Int64ObservableCounter
}

// durationName is the request-duration histogram's name, and
// durationDescription its description.
const (
	durationName        = "graphql.server.request.duration"
	durationDescription = "Duration of GraphQL requests"
)

// DurationBoundaries are the bucket boundaries of the request-duration
// histogram, in seconds: those the HTTP semantic conventions advise for
// http.server.request.duration.
var DurationBoundaries = []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10}

// newInstruments makes the instruments on m; durs, when not nil, keeps
// the duration histogram in place of the SDK.
func newInstruments(m metric.Meter, durs *durations) (*instruments, error) {
	in := &instruments{meter: m, durs: durs, names: newNameBound(0, nil), codes: newNameBound(DefaultMaxOperationNames, nil)}
	var err error
	if in.requests, err = m.Int64ObservableCounter("graphql.server.requests", metric.WithDescription("GraphQL requests served"),
		metric.WithUnit("{request}")); err != nil {
		return nil, err
	}
	if durs == nil {
		if in.duration, err = m.Float64Histogram(durationName, metric.WithDescription(durationDescription),
			metric.WithUnit("s"), metric.WithExplicitBucketBoundaries(DurationBoundaries...)); err != nil {
			return nil, err
		}
	}
	if in.errors, err = m.Int64ObservableCounter("graphql.server.errors", metric.WithDescription("GraphQL errors answered, by code"),
		metric.WithUnit("{error}")); err != nil {
		return nil, err
	}
	if in.activeRequests, err = m.Int64ObservableUpDownCounter("graphql.server.active_requests", metric.WithDescription("GraphQL requests being served"),
		metric.WithUnit("{request}")); err != nil {
		return nil, err
	}
	if in.persisted, err = m.Int64ObservableCounter("graphql.server.persisted_queries", metric.WithDescription("Persisted-query lookups, by result (hit or miss)"),
		metric.WithUnit("{lookup}")); err != nil {
		return nil, err
	}
	if in.documents, err = m.Int64ObservableCounter("graphql.server.document_cache", metric.WithDescription("Document-cache lookups, by result (hit or miss)"),
		metric.WithUnit("{lookup}")); err != nil {
		return nil, err
	}
	if in.bodySize, err = m.Int64ObservableCounter("graphql.server.request.body.size", metric.WithDescription("Bytes of request bodies received, uploaded files included"),
		metric.WithUnit("By")); err != nil {
		return nil, err
	}
	if _, err = m.RegisterCallback(in.observe, in.requests, in.errors, in.persisted, in.documents, in.activeRequests, in.bodySize); err != nil {
		return nil, err
	}
	in.docHit, in.docMiss = in.sets.get(setKey{kind: kindDoc, a: "hit"}), in.sets.get(setKey{kind: kindDoc, a: "miss"})
	in.pqHit, in.pqMiss = in.sets.get(setKey{kind: kindPQ, a: "hit"}), in.sets.get(setKey{kind: kindPQ, a: "miss"})
	return in, nil
}

// observe reports the counts to a collecting reader.
func (m *instruments) observe(_ context.Context, o metric.Observer) error {
	o.ObserveInt64(m.activeRequests, m.inFlight.Load())
	if n := m.received.Load(); n > 0 {
		o.ObserveInt64(m.bodySize, n)
	}
	m.sets.each(func(kind string, s *series) {
		var inst metric.Int64Observable
		switch kind {
		case kindOp:
			inst = m.requests
		case kindCode:
			inst = m.errors
		case kindPQ:
			inst = m.persisted
		case kindDoc:
			inst = m.documents
		default:
			return
		}
		if n := s.n.Load(); n > 0 {
			o.ObserveInt64(inst, n, s.observe...)
		}
	})
	return nil
}

// The kinds of series: requests by operation, errors by code,
// persisted-query and document-cache lookups by result.
const (
	kindOp   = "op"
	kindCode = "code"
	kindPQ   = "pq"
	kindDoc  = "doc"
)

// maxAttrSetBytes bounds the bytes of the attribute values of the series
// kept: operation names and error codes come from clients and resolvers,
// so past it a new series of a kind is counted in that kind's overflow
// series, marked otel.metric.overflow=true as the SDK marks its own.
const maxAttrSetBytes = 64 << 10

// series is the count of one attribute set, with the options that
// record and observe it.
type series struct {
	key     setKey // what names it: overflowKey(kind) for a kind's overflow series
	n       atomic.Int64
	attrs   attribute.Set
	record  []metric.RecordOption
	observe []metric.ObserveOption
	// hist is, for an operation's series, its request-duration counts
	// when graftotel keeps the histogram (durations); nil until the
	// first request of the series.
	hist atomic.Pointer[histCounts]
}

func newSeries(key setKey, set attribute.Set) *series {
	return &series{key: key, attrs: set, record: []metric.RecordOption{metric.WithAttributeSet(set)},
		observe: []metric.ObserveOption{metric.WithAttributeSet(set)}}
}

// attrSets keeps the series of each operation (name, type and outcome),
// error code and lookup result, up to maxAttrSetBytes of values. The map
// is read without a lock and replaced whole when a series is added (rare:
// the names are bounded).
type attrSets struct {
	mu    sync.Mutex // held to add
	sets  atomic.Pointer[map[setKey]*series]
	bytes int
}

// kept returns the series kept, by key; the map is only read.
func (a *attrSets) kept() map[setKey]*series {
	if p := a.sets.Load(); p != nil {
		return *p
	}
	return nil
}

// setKey names a series: its kind and values.
type setKey struct{ kind, a, b, c string }

func (k setKey) size() int { return len(k.a) + len(k.b) + len(k.c) }

// overflowKey is the key of kind's overflow series.
func overflowKey(kind string) setKey { return setKey{kind: kind, a: "\x00overflow"} }

// get returns the series of key, made on first use.
func (a *attrSets) get(key setKey) *series {
	if s, ok := a.kept()[key]; ok {
		return s
	}
	return a.add(key)
}

// add makes the series of key, or returns kind's overflow series once the
// bound is reached (or when key is its key, for another set's overflow).
func (a *attrSets) add(key setKey) *series {
	a.mu.Lock()
	defer a.mu.Unlock()
	old := a.kept()
	if s, ok := old[key]; ok {
		return s
	}
	var s *series
	if key == overflowKey(key.kind) || a.bytes+key.size() > maxAttrSetBytes {
		over := overflowKey(key.kind)
		if s, ok := old[over]; ok {
			return s
		}
		key, s = over, newSeries(over, attribute.NewSet(attribute.Bool("otel.metric.overflow", true)))
	} else {
		key = setKey{key.kind, strings.Clone(key.a), strings.Clone(key.b), strings.Clone(key.c)} // not slices of a request's buffer
		s = newSeries(key, key.attributes())
		a.bytes += key.size()
	}
	sets := make(map[setKey]*series, len(old)+1)
	for k, v := range old {
		sets[k] = v
	}
	sets[key] = s
	a.sets.Store(&sets)
	return s
}

// attributes is the attribute set of the series key names.
func (k setKey) attributes() attribute.Set {
	switch k.kind {
	case kindOp:
		return attribute.NewSet(attribute.String("graphql.operation.name", k.a),
			attribute.String("graphql.operation.type", k.b), attribute.String("outcome", k.c))
	case kindCode:
		return attribute.NewSet(attribute.String("code", k.a))
	default: // kindPQ, kindDoc
		return attribute.NewSet(attribute.String("result", k.a))
	}
}

// each calls f with every series kept.
func (a *attrSets) each(f func(kind string, s *series)) {
	for k, s := range a.kept() {
		f(k.kind, s)
	}
}

// record measures one answered request.
func (m *instruments) record(ctx context.Context, ev *graft.HookEvent, d time.Duration) {
	if ev.Received {
		m.inFlight.Add(-1) // counted up in the Before of PhaseReceived
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
	op := m.sets.get(setKey{kindOp, name, opType, outcome})
	op.n.Add(1)
	if m.durs == nil {
		m.duration.Record(ctx, d.Seconds(), op.record...)
	} else {
		h := op.hist.Load()
		if h == nil { // the series' first request: find its counts once
			h = m.durs.hist(op.key) // past the bound, the overflow series'
			op.hist.Store(h)
		}
		m.durs.record(h, d.Seconds())
	}
	for _, c := range ev.ErrorCodes {
		if c == "" {
			c = "UNKNOWN"
		}
		c = m.codes.name(c, true)
		m.sets.get(setKey{kind: kindCode, a: c}).n.Add(1)
	}
	if ev.Request != nil && ev.Request.BytesReceived > 0 {
		m.received.Add(ev.Request.BytesReceived)
	}
	switch ev.PersistedQuery {
	case "":
	case "hit":
		m.pqHit.n.Add(1)
	case "miss":
		m.pqMiss.n.Add(1)
	default:
		m.sets.get(setKey{kind: kindPQ, a: ev.PersistedQuery}).n.Add(1)
	}
	if ev.OperationType != "" { // the document parsed and validated
		if ev.DocumentCached {
			m.docHit.n.Add(1)
		} else {
			m.docMiss.n.Add(1)
		}
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
// series. opts are added to the MeterProvider's own (its reader), for
// instruments of the application's own.
//
// An Instrumentation given this MeterProvider keeps its request-duration
// histogram itself and hands it to the provider's reader when it
// collects: a request costs a bucket search and a few atomic adds, rather
// than the SDK's synchronous Record. The histogram is the one the SDK
// would keep (cumulative, with DurationBoundaries as they are when
// PrometheusHandler is called, minimum, maximum and sum) without
// exemplars, which the text format does not show; views in opts do not
// apply to it.
func PrometheusHandler(opts ...sdkmetric.Option) (*sdkmetric.MeterProvider, http.Handler, error) {
	reg := prometheus.NewRegistry()
	if err := reg.Register(collectors.NewGoCollector()); err != nil {
		return nil, nil, err
	}
	if err := reg.Register(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})); err != nil {
		return nil, nil, err
	}
	durs := newDurations()
	exp, err := otelprom.New(otelprom.WithRegisterer(reg), otelprom.WithoutScopeInfo(), otelprom.WithProducer(durs))
	if err != nil {
		return nil, nil, err
	}
	mp := sdkmetric.NewMeterProvider(append([]sdkmetric.Option{sdkmetric.WithReader(exp)}, opts...)...)
	registerDurations(mp, durs)
	return mp, promhttp.HandlerFor(reg, promhttp.HandlerOpts{}), nil
}

// otherName is the operation name recorded for operations past the bound
// or not known.
const otherName = "other"

// nameBound keeps the distinct values of a metric attribute bounded: up
// to max names are kept, the rest recorded as "other"; every value is cut
// to MaxLabelBytes. The set is read without a lock and replaced whole
// when a name is admitted.
type nameBound struct {
	max   int
	mu    sync.Mutex // held to admit
	names atomic.Pointer[map[string]struct{}]
}

// newNameBound returns the bound of max names (0: the default, negative:
// none) with known admitted first.
func newNameBound(max int, known []string) *nameBound {
	if max == 0 {
		max = DefaultMaxOperationNames
	}
	b := &nameBound{max: max}
	names := map[string]struct{}{}
	for _, n := range known {
		if len(names) < b.max {
			names[cut(n)] = struct{}{}
		}
	}
	b.names.Store(&names)
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
	if _, ok := (*b.names.Load())[n]; ok {
		return n
	}
	if !known || b.max < 0 {
		return otherName
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	old := *b.names.Load()
	if _, ok := old[n]; ok {
		return n
	}
	if len(old) >= b.max {
		return otherName
	}
	n = strings.Clone(n) // not a slice of a request's buffer
	names := make(map[string]struct{}, len(old)+1)
	for k := range old {
		names[k] = struct{}{}
	}
	names[n] = struct{}{}
	b.names.Store(&names)
	return n
}

// cut shortens s to at most MaxLabelBytes, on a rune boundary.
func cut(s string) string {
	if len(s) <= MaxLabelBytes {
		return s
	}
	return clip.Prefix(s, MaxLabelBytes)
}
