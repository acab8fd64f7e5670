package graftotel_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/graftgql/graft"
	graftotel "github.com/graftgql/graft/graftotel"
	"github.com/graftgql/graft/schema"
)

type book struct{ Title string }

func testSchema(t *testing.T) *schema.Schema {
	t.Helper()
	b := schema.New()
	schema.QueryNoArgs(b, "books", func(ctx context.Context) ([]book, error) { return []book{{"a"}, {"b"}}, nil })
	schema.QueryNoArgs(b, "fail", func(ctx context.Context) (*string, error) {
		return nil, graft.NewError(graft.CodeForbidden, "no")
	})
	obj := schema.Object[book](b, "Book")
	schema.FieldFuncNoArgs(obj, "upper", func(ctx context.Context, bk *book) (string, error) { return strings.ToUpper(bk.Title), nil })
	schema.FieldFuncNoArgs(obj, "broken", func(ctx context.Context, bk *book) (*string, error) { return nil, errors.New("bad") })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func do(t *testing.T, h http.Handler, query string, header ...string) map[string]any {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query})
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("%v: %s", err, rec.Body.String())
	}
	return out
}

func TestTracing(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	in, err := graftotel.New(graftotel.Options{TracerProvider: tp, NoMetrics: true, PhaseSpans: true, ResolverSpans: true,
		MinResolverDepth: 2, ExcludeFields: []string{"Book.broken"}, TraceIDExtension: true})
	if err != nil {
		t.Fatal(err)
	}
	cfg := graft.Config{}
	in.Install(&cfg)
	r, err := graft.NewRouter(testSchema(t), nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	out := do(t, r, `query Shelf { books { title upper broken } }`, "traceparent", "00-"+traceID+"-00f067aa0ba902b7-01")
	if ext, _ := out["extensions"].(map[string]any); ext["traceId"] != traceID {
		t.Fatalf("extensions: %v", out)
	}
	spans := exp.GetSpans()
	byName := map[string]tracetest.SpanStub{}
	count := map[string]int{}
	for _, s := range spans {
		byName[s.Name] = s
		count[s.Name]++
	}
	root, ok := byName["query Shelf"]
	if !ok {
		t.Fatalf("no request span; spans %v", count)
	}
	if root.SpanContext.TraceID().String() != traceID || root.Parent.SpanID().String() != "00f067aa0ba902b7" || !root.Parent.IsRemote() {
		t.Fatalf("request span not continued from traceparent: %v parent %v", root.SpanContext, root.Parent)
	}
	attrs := attribute.NewSet(root.Attributes...)
	if v, _ := attrs.Value("graphql.operation.name"); v.AsString() != "Shelf" {
		t.Fatalf("attrs %v", root.Attributes)
	}
	if v, _ := attrs.Value("graphql.operation.type"); v.AsString() != "query" {
		t.Fatalf("attrs %v", root.Attributes)
	}
	// The HTTP semantic conventions' attributes of a server span.
	for k, want := range map[string]string{"http.request.method": "POST", "url.path": "/graphql", "http.route": "/graphql"} {
		if v, _ := attrs.Value(attribute.Key(k)); v.AsString() != want {
			t.Errorf("%s = %q, want %q; attrs %v", k, v.AsString(), want, root.Attributes)
		}
	}
	if v, _ := attrs.Value("graphql.error.count"); v.AsInt64() != 2 {
		t.Fatalf("attrs %v", root.Attributes)
	}
	sum := sha256.Sum256([]byte(`query Shelf { books { title upper broken } }`))
	if v, _ := attrs.Value("graphql.document.hash"); v.AsString() != "sha256:"+hex.EncodeToString(sum[:]) {
		t.Fatalf("document hash %q", v.AsString())
	}
	for _, phase := range []string{"received", "parsed", "validated", "analyzed", "executed", "answered"} {
		s, ok := byName["graphql."+phase]
		if !ok || s.Parent.SpanID() != root.SpanContext.SpanID() {
			t.Fatalf("phase span %s missing or not a child of the request span (%v)", phase, count)
		}
	}
	// Resolver spans: Book.upper twice (depth 3 >= 2), not Book.broken
	// (excluded), not Query.books (depth 1 < 2), children of execution.
	if count["Book.upper"] != 2 || count["Book.broken"] != 0 || count["Query.books"] != 0 {
		t.Fatalf("resolver spans %v", count)
	}
	if byName["Book.upper"].Parent.SpanID() != byName["graphql.executed"].SpanContext.SpanID() {
		t.Fatalf("resolver span parent")
	}
}

func TestPrometheusMetrics(t *testing.T) {
	mp, metrics, err := graftotel.PrometheusHandler()
	if err != nil {
		t.Fatal(err)
	}
	in, err := graftotel.New(graftotel.Options{MeterProvider: mp, KnownOperations: []string{"Shelf", "Bad"}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := graft.Config{}
	in.Install(&cfg)
	r, err := graft.NewRouter(testSchema(t), nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := in.ObserveRouter(r); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		do(t, r, `query Shelf { books { title } }`)
	}
	do(t, r, `query Unlisted { books { title } }`)
	do(t, r, `query Bad { fail }`)
	do(t, r, `{ nope }`)

	rec := httptest.NewRecorder()
	metrics.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(strings.NewReader(rec.Body.String()))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, rec.Body.String())
	}
	value := func(family string, labels map[string]string) float64 {
		f := families[family]
		if f == nil {
			t.Fatalf("no family %s in\n%s", family, rec.Body.String())
		}
		var total float64
	next:
		for _, m := range f.GetMetric() {
			for k, v := range labels {
				found := false
				for _, l := range m.GetLabel() {
					if l.GetName() == k && l.GetValue() == v {
						found = true
					}
				}
				if !found {
					continue next
				}
			}
			switch {
			case m.Counter != nil:
				total += m.GetCounter().GetValue()
			case m.Gauge != nil:
				total += m.GetGauge().GetValue()
			case m.Histogram != nil:
				total += float64(m.GetHistogram().GetSampleCount())
			}
		}
		return total
	}
	checks := []struct {
		family string
		labels map[string]string
		want   float64
	}{
		{"graphql_server_requests_total", map[string]string{"graphql_operation_name": "Shelf", "outcome": "success"}, 3},
		{"graphql_server_requests_total", map[string]string{"graphql_operation_name": "Bad", "outcome": "error"}, 1},
		{"graphql_server_requests_total", map[string]string{"graphql_operation_type": "unknown", "outcome": "error"}, 1},
		{"graphql_server_request_duration_seconds", map[string]string{"graphql_operation_name": "Shelf"}, 3},
		{"graphql_server_requests_total", map[string]string{"graphql_operation_name": "other"}, 1},
		{"graphql_server_requests_total", map[string]string{"graphql_operation_name": "Unlisted"}, 0},
		{"graphql_server_errors_total", map[string]string{"code": "FORBIDDEN"}, 1},
		{"graphql_server_errors_total", map[string]string{"code": "GRAPHQL_VALIDATION_FAILED"}, 1},
		{"graphql_server_active_requests", nil, 0},
		{"graphql_server_document_cache_total", map[string]string{"result": "miss"}, 3},
		{"graphql_server_document_cache_total", map[string]string{"result": "hit"}, 2},
		{"graphql_server_subscriptions", nil, 0},
		// The bodies' bytes: do sends {"query":"..."} for each.
		{"graphql_server_request_body_size_bytes_total", nil, float64(3*len(`{"query":"query Shelf { books { title } }"}`) +
			len(`{"query":"query Unlisted { books { title } }"}`) + len(`{"query":"query Bad { fail }"}`) + len(`{"query":"{ nope }"}`))},
	}
	for _, c := range checks {
		if got := value(c.family, c.labels); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.family, c.labels, got, c.want)
		}
	}
}

// TestNoTracingNoMetrics checks the switches: with both off Install adds
// nothing; with tracing off the metrics still count and no span starts.
func TestNoTracingNoMetrics(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	off, err := graftotel.New(graftotel.Options{TracerProvider: tp, NoTracing: true, NoMetrics: true})
	if err != nil {
		t.Fatal(err)
	}
	var cfg graft.Config
	off.Install(&cfg)
	if len(cfg.Hooks) != 0 || len(cfg.FieldMiddleware) != 0 {
		t.Fatalf("Install with everything off added %d hooks and %d middleware", len(cfg.Hooks), len(cfg.FieldMiddleware))
	}

	mp, metrics, err := graftotel.PrometheusHandler()
	if err != nil {
		t.Fatal(err)
	}
	in, err := graftotel.New(graftotel.Options{TracerProvider: tp, MeterProvider: mp, NoTracing: true, ResolverSpans: true})
	if err != nil {
		t.Fatal(err)
	}
	in.Install(&cfg)
	r, err := graft.NewRouter(testSchema(t), nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		do(t, r, `query Shelf { books { title upper } }`, "traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	}
	if n := len(exp.GetSpans()); n != 0 {
		t.Fatalf("%d spans with NoTracing", n)
	}
	rec := httptest.NewRecorder()
	metrics.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(strings.NewReader(rec.Body.String()))
	if err != nil {
		t.Fatal(err)
	}
	var requests float64
	for _, m := range families["graphql_server_requests_total"].GetMetric() {
		requests += m.GetCounter().GetValue()
	}
	if requests != 2 {
		t.Fatalf("graphql_server_requests_total = %v, want 2\n%s", requests, rec.Body.String())
	}
	if g := families["graphql_server_active_requests"].GetMetric(); len(g) != 1 || g[0].GetGauge().GetValue() != 0 {
		t.Fatalf("active requests %v", g)
	}
}

// TestPhaseEvents: by default a request has one span, continued from the
// traceparent and with the operation's attributes, whose events are the
// ends of its phases, in order and within the span; resolver spans, when
// on, are its children.
func TestPhaseEvents(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	in, err := graftotel.New(graftotel.Options{TracerProvider: tp, NoMetrics: true,
		ResolverSpans: true, MinResolverDepth: 2, ExcludeFields: []string{"Book.broken"}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := graft.Config{}
	in.Install(&cfg)
	r, err := graft.NewRouter(testSchema(t), nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	do(t, r, `query Shelf { books { title upper } }`, "traceparent", "00-"+traceID+"-00f067aa0ba902b7-01")
	count := map[string]int{}
	byName := map[string]tracetest.SpanStub{}
	for _, s := range exp.GetSpans() {
		count[s.Name]++
		byName[s.Name] = s
	}
	root, ok := byName["query Shelf"]
	if !ok || len(count) != 2 || count["query Shelf"] != 1 || count["Book.upper"] != 2 {
		t.Fatalf("spans %v, want the request's and two Book.upper", count)
	}
	if root.SpanContext.TraceID().String() != traceID {
		t.Fatalf("trace %v", root.SpanContext.TraceID())
	}
	attrs := attribute.NewSet(root.Attributes...)
	if v, _ := attrs.Value("graphql.operation.name"); v.AsString() != "Shelf" {
		t.Fatalf("attrs %v", root.Attributes)
	}
	if byName["Book.upper"].Parent.SpanID() != root.SpanContext.SpanID() {
		t.Fatal("resolver span is not a child of the request's span")
	}
	var events []string
	last := root.StartTime
	for _, e := range root.Events {
		events = append(events, e.Name)
		if e.Time.Before(last) || e.Time.After(root.EndTime) {
			t.Errorf("event %s at %v: not after the one before (%v) or after the span's end (%v)", e.Name, e.Time, last, root.EndTime)
		}
		last = e.Time
	}
	want := []string{"graphql.received", "graphql.parsed", "graphql.validated", "graphql.analyzed", "graphql.executed"}
	if !slices.Equal(events, want) {
		t.Fatalf("request span's events %v, want %v", events, want)
	}
}
