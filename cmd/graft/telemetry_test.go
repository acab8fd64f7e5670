package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

func mapLookup(m map[string]string) env {
	return func(name string) (string, bool) {
		v, ok := m[name]
		return v, ok
	}
}

// TestTelemetryBadEnvironment checks that a bad OpenTelemetry or metrics
// variable stops the server at start-up with a message naming it.
func TestTelemetryBadEnvironment(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "http/json", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"},
			`OTEL_EXPORTER_OTLP_PROTOCOL="http/json": want http/protobuf (the receiver's port 4318) or grpc (port 4317)`},
		{map[string]string{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/json"}, `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL="http/json"`},
		{map[string]string{"OTEL_TRACES_EXPORTER": "jaeger"}, `OTEL_TRACES_EXPORTER="jaeger": want otlp, console or none`},
		{map[string]string{"OTEL_TRACES_EXPORTER": "otlp,console"}, `OTEL_TRACES_EXPORTER="otlp,console": want otlp, console or none`},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "collector:4318"}, `OTEL_EXPORTER_OTLP_ENDPOINT="collector:4318": want an http:// or https:// URL`},
		{map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "api-key"}, `OTEL_EXPORTER_OTLP_HEADERS: "api-key" is not key=value`},
		{map[string]string{"OTEL_RESOURCE_ATTRIBUTES": "deployment.environment"}, `OTEL_RESOURCE_ATTRIBUTES: "deployment.environment" is not key=value`},
		{map[string]string{"OTEL_TRACES_SAMPLER": "sometimes"}, `OTEL_TRACES_SAMPLER="sometimes": want always_on`},
		{map[string]string{"OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "2"}, `OTEL_TRACES_SAMPLER_ARG="2": want a ratio from 0 to 1`},
		{map[string]string{"OTEL_BSP_SCHEDULE_DELAY": "0"}, `OTEL_BSP_SCHEDULE_DELAY="0": want milliseconds, 1 to 86400000`},
		{map[string]string{"OTEL_BSP_SCHEDULE_DELAY": "86400001"}, `OTEL_BSP_SCHEDULE_DELAY="86400001": want milliseconds, 1 to 86400000`},
		{map[string]string{"OTEL_BSP_SCHEDULE_DELAY": "5s"}, `OTEL_BSP_SCHEDULE_DELAY="5s"`},
		{map[string]string{"METRICS_ENABLED": "maybe"}, `METRICS_ENABLED="maybe": must be one of true/false`},
		{map[string]string{"METRICS_ENABLED": "true", "METRICS_PATH": "metrics"}, `METRICS_PATH="metrics": want a path`},
		{map[string]string{"METRICS_ENABLED": "true", "METRICS_PATH": "/graphql"}, `METRICS_PATH="/graphql": taken by GraphQL or GraphiQL`},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), nil, mapLookup(tt.env), strings.NewReader(""), &stdout, &stderr)
			if code != 1 || !strings.Contains(stderr.String(), "bad environment") || !strings.Contains(stderr.String(), tt.want) {
				t.Fatalf("exit %d, stderr:\n%s\nwant exit 1 with %q", code, stderr.String(), tt.want)
			}
		})
	}
}

// TestMetricsEndpoint sends known traffic to the server with
// METRICS_ENABLED and checks the counts /metrics reports, parsed with the
// Prometheus text parser.
func TestMetricsEndpoint(t *testing.T) {
	hs := startServer(t, map[string]string{"METRICS_ENABLED": "true", "METRICS_PATH": "/internal/metrics"})
	for range 3 {
		if status, _, body := call(t, "POST", hs.URL+"/graphql", `{"query":"query Hello { hello }"}`, jsonHeader); status != 200 {
			t.Fatalf("query = %d %s", status, body)
		}
	}
	for range 2 {
		if status, _, body := call(t, "POST", hs.URL+"/graphql", `{"query":"query Bad { nope }"}`, jsonHeader); status == 200 {
			t.Fatalf("invalid query = %d %s, want a request error", status, body)
		}
	}
	if status, _, _ := call(t, "GET", hs.URL+"/metrics", "", nil); status == 200 {
		t.Fatalf("/metrics answered although METRICS_PATH moved it")
	}
	status, header, body := call(t, "GET", hs.URL+"/internal/metrics", "", nil)
	if status != 200 || !strings.HasPrefix(header.Get("Content-Type"), "text/plain") {
		t.Fatalf("/internal/metrics = %d %s", status, header.Get("Content-Type"))
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, body)
	}
	checks := []struct {
		family string
		labels map[string]string
		want   float64
	}{
		// Hello is not a known operation (neither persisted nor listed):
		// it is counted as other.
		{"graphql_server_requests_total", map[string]string{"graphql_operation_name": "other", "graphql_operation_type": "query", "outcome": "success"}, 3},
		// The two invalid queries and the 404 of /metrics: refusals are
		// measured too.
		{"graphql_server_requests_total", map[string]string{"graphql_operation_type": "unknown", "outcome": "error"}, 3},
		{"graphql_server_requests_total", nil, 6},
		{"graphql_server_request_duration_seconds", map[string]string{"graphql_operation_name": "other"}, 3},
		{"graphql_server_errors_total", map[string]string{"code": "GRAPHQL_VALIDATION_FAILED"}, 2},
		{"graphql_server_active_requests", nil, 0},
		{"graphql_server_document_cache_total", map[string]string{"result": "miss"}, 1},
		{"graphql_server_document_cache_total", map[string]string{"result": "hit"}, 2},
		{"graphql_server_subscriptions", nil, 0},
	}
	for _, c := range checks {
		f := families[c.family]
		if f == nil {
			t.Errorf("no family %s in\n%s", c.family, body)
			continue
		}
		if got := sumMetric(f, c.labels); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.family, c.labels, got, c.want)
		}
	}
	if t.Failed() {
		t.Logf("scraped:\n%s", body)
	}
}

// sumMetric adds up the samples of f whose labels include labels
// (histograms count their observations).
func sumMetric(f *dto.MetricFamily, labels map[string]string) float64 {
	var total float64
next:
	for _, m := range f.GetMetric() {
		for k, v := range labels {
			if !slices.ContainsFunc(m.GetLabel(), func(l *dto.LabelPair) bool { return l.GetName() == k && l.GetValue() == v }) {
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
