package graftserver

import (
	"context"
	"testing"
)

// TestTelemetrySwitches checks when tracing and metrics are on: tracing
// only when an exporter is named or an OTLP endpoint is set, and then
// with the exporters asked for.
func TestTelemetrySwitches(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    string
		metrics bool
	}{
		{"nothing set", nil, "", false},
		{"endpoint", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, "otlp", false},
		{"traces endpoint", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces"}, "otlp", false},
		{"none wins over an endpoint", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_TRACES_EXPORTER": "none"}, "", false},
		{"console", map[string]string{"OTEL_TRACES_EXPORTER": "console"}, "console", false},
		{"metrics alone", map[string]string{"METRICS_ENABLED": "yes"}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			te, exporter, err := parseTelemetry(mapLookup(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			if exporter != tt.want {
				t.Fatalf("exporter = %q, want %q", exporter, tt.want)
			}
			// autoexport reads the process environment.
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			tel, err := newTelemetry(context.Background(), te, exporter, "graft")
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = tel.shutdown(context.Background()) }()
			if (tel.tp != nil) != (tt.want != "") || (tel.metrics != nil) != tt.metrics {
				t.Fatalf("tracing %v, metrics %v; want tracing %v, metrics %v", tel.tp != nil, tel.metrics != nil, tt.want != "", tt.metrics)
			}
			// Nothing asked for: no hook at all, so no cost per request.
			if (tel.in == nil) != (tt.want == "" && !tt.metrics) {
				t.Fatalf("instrumentation installed = %v", tel.in != nil)
			}
		})
	}
}

func mapLookup(m map[string]string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		v, ok := m[name]
		return v, ok
	}
}

// TestSamplerFromEnvironment: the sampler graftserver hands graftotel is
// the one the SDK would build from OTEL_TRACES_SAMPLER and
// OTEL_TRACES_SAMPLER_ARG (their descriptions name the sampler and its
// ratio).
func TestSamplerFromEnvironment(t *testing.T) {
	for _, tt := range []struct{ sampler, arg, want string }{
		{"", "", "ParentBased{root:AlwaysOnSampler,remoteParentSampled:AlwaysOnSampler,remoteParentNotSampled:AlwaysOffSampler,localParentSampled:AlwaysOnSampler,localParentNotSampled:AlwaysOffSampler}"},
		{"always_on", "", "AlwaysOnSampler"},
		{"ALWAYS_OFF", "", "AlwaysOffSampler"},
		{"traceidratio", "0.25", "TraceIDRatioBased{0.25}"},
		{"traceidratio", "", "TraceIDRatioBased{1}"},
		{"parentbased_always_on", "", "ParentBased{root:AlwaysOnSampler,remoteParentSampled:AlwaysOnSampler,remoteParentNotSampled:AlwaysOffSampler,localParentSampled:AlwaysOnSampler,localParentNotSampled:AlwaysOffSampler}"},
		{"parentbased_always_off", "", "ParentBased{root:AlwaysOffSampler,remoteParentSampled:AlwaysOnSampler,remoteParentNotSampled:AlwaysOffSampler,localParentSampled:AlwaysOnSampler,localParentNotSampled:AlwaysOffSampler}"},
		{" parentbased_traceidratio ", " 0.01 ", "ParentBased{root:TraceIDRatioBased{0.01},remoteParentSampled:AlwaysOnSampler,remoteParentNotSampled:AlwaysOffSampler,localParentSampled:AlwaysOnSampler,localParentNotSampled:AlwaysOffSampler}"},
	} {
		env := map[string]string{"OTEL_TRACES_SAMPLER": tt.sampler, "OTEL_TRACES_SAMPLER_ARG": tt.arg}
		te, _, err := parseTelemetry(mapLookup(env))
		if err != nil {
			t.Fatal(err)
		}
		if got := samplerOf(te).Description(); got != tt.want {
			t.Errorf("OTEL_TRACES_SAMPLER=%q OTEL_TRACES_SAMPLER_ARG=%q: sampler %s, want %s", tt.sampler, tt.arg, got, tt.want)
		}
	}
}
