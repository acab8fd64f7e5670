package graftotel_test

import (
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/graftgql/graft"
	graftotel "github.com/graftgql/graft/graftotel"
	"github.com/graftgql/graft/persisted"
)

// scrape returns the metrics handler's text and its parsed families.
func scrape(t *testing.T, h http.Handler) (string, map[string]*dtoFamily) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(rec.Body.String()))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return rec.Body.String(), families
}

// persistedRouter is a router with automatic persisted queries and the
// instrumentation of opts, and its metrics handler.
func persistedRouter(t *testing.T, opts graftotel.Options) (*graft.Router, http.Handler) {
	t.Helper()
	mp, metrics, err := graftotel.PrometheusHandler()
	if err != nil {
		t.Fatal(err)
	}
	opts.MeterProvider, opts.NoTracing = mp, true
	in, err := graftotel.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	cfg := graft.Config{PersistedQueries: &persisted.Options{Mode: persisted.APQ}}
	in.Install(&cfg)
	r, err := graft.NewRouter(testSchema(t), nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r, metrics
}

// persist registers query through APQ and then runs it by hash alone, as
// an APQ client does: the second request is a persisted-query hit.
func persist(t *testing.T, r http.Handler, query string) {
	t.Helper()
	hash := persisted.Hash(persisted.SHA256, query)
	ext := `{"persistedQuery":{"version":1,"sha256Hash":"` + hash + `"}}`
	for _, body := range []string{`{"query":` + quote(query) + `,"extensions":` + ext + `}`, `{"extensions":` + ext + `}`} {
		req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, req)
		if rec.Code != 200 || strings.Contains(rec.Body.String(), `"errors"`) {
			t.Fatalf("%d %.200s", rec.Code, rec.Body.String())
		}
	}
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// TestLongOperationNamesStaySmall sends ten operations whose names are
// 100 KB long, ad hoc and then persisted (known): /metrics stays small,
// each name is cut to MaxLabelBytes.
func TestLongOperationNamesStaySmall(t *testing.T) {
	r, metrics := persistedRouter(t, graftotel.Options{})
	before, _ := scrape(t, metrics)
	names := make([]string, 10)
	for i := range names {
		names[i] = fmt.Sprintf("N%d", i) + strings.Repeat("x", 100<<10)
		do(t, r, "query "+names[i]+" { books { title } }")
		persist(t, r, "query "+names[i]+" { books { title } }")
	}
	text, families := scrape(t, metrics)
	// Ten series of up to 64-byte names, each in the requests counter and
	// the histogram's 17 lines: well under 64 KB more than before.
	grown := len(text) - len(before)
	t.Logf("/metrics grew by %d bytes for ten operations named with 100 KB each", grown)
	if grown > 64<<10 {
		t.Fatalf("/metrics grew by %d bytes for ten long names", grown)
	}
	kept := 0
	for _, m := range families["graphql_server_requests_total"].GetMetric() {
		for _, l := range m.GetLabel() {
			if l.GetName() != "graphql_operation_name" {
				continue
			}
			if len(l.GetValue()) > graftotel.MaxLabelBytes {
				t.Errorf("label of %d bytes", len(l.GetValue()))
			}
			if strings.HasPrefix(l.GetValue(), "N") {
				kept++
			}
		}
	}
	if kept != 10 {
		t.Errorf("%d persisted names kept (cut), want 10:\n%.2000s", kept, text)
	}
	if got := sum(families["graphql_server_requests_total"], map[string]string{"graphql_operation_name": "other"}); got != 20 {
		// The ad-hoc requests and the APQ registrations (misses).
		t.Errorf("other = %v, want 20", got)
	}
}

// TestOperationNamesBounded persists more distinct operations than
// MaxOperationNames: the first ones keep their names, the rest are other.
func TestOperationNamesBounded(t *testing.T) {
	r, metrics := persistedRouter(t, graftotel.Options{MaxOperationNames: 5, KnownOperations: []string{"Listed"}})
	do(t, r, "query Listed { books { title } }")
	for i := range 12 {
		persist(t, r, fmt.Sprintf("query Op%d { books { title } }", i))
	}
	_, families := scrape(t, metrics)
	names := map[string]bool{}
	for _, m := range families["graphql_server_requests_total"].GetMetric() {
		for _, l := range m.GetLabel() {
			if l.GetName() == "graphql_operation_name" {
				names[l.GetValue()] = true
			}
		}
	}
	// Listed and four persisted names, and other.
	if len(names) != 6 || !names["Listed"] || !names["Op0"] || !names["Op3"] || names["Op4"] || !names["other"] {
		t.Errorf("operation names %v, want Listed, Op0 to Op3 and other", names)
	}
}

// TestPrometheusShape checks the scrape an operator sees: histogram
// buckets in seconds (the HTTP semantic conventions' boundaries), Go
// runtime and process metrics, and no otel_scope labels on the series.
func TestPrometheusShape(t *testing.T) {
	r, metrics := persistedRouter(t, graftotel.Options{})
	do(t, r, "{ books { title } }")
	text, families := scrape(t, metrics)
	for _, want := range []string{`le="0.005"`, `le="0.25"`, `le="2.5"`, `le="10"`} {
		if !strings.Contains(text, "graphql_server_request_duration_seconds_bucket{") || !strings.Contains(text, want) {
			t.Errorf("no bucket %s", want)
		}
	}
	var bounds []float64
	for _, b := range families["graphql_server_request_duration_seconds"].GetMetric()[0].GetHistogram().GetBucket() {
		bounds = append(bounds, b.GetUpperBound())
	}
	if fmt.Sprint(bounds) != fmt.Sprint(append(graftotel.DurationBoundaries, math.Inf(1))) {
		t.Errorf("buckets %v, want %v", bounds, graftotel.DurationBoundaries)
	}
	for _, f := range []string{"go_goroutines", "go_memstats_heap_alloc_bytes", "process_resident_memory_bytes"} {
		if families[f] == nil {
			t.Errorf("no %s", f)
		}
	}
	if strings.Contains(text, "otel_scope_") {
		t.Errorf("otel_scope labels on the series:\n%.3000s", text)
	}
}

type dtoFamily = dto.MetricFamily

// sum adds up the samples of f whose labels include labels.
func sum(f *dto.MetricFamily, labels map[string]string) float64 {
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
		total += m.GetCounter().GetValue()
	}
	return total
}
