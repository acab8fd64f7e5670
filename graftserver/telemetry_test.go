package graftserver

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
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
			tel, err := newTelemetry(context.Background(), te, exporter, "graft", mapLookup(tt.env), slog.New(slog.DiscardHandler))
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

// TestExportDelay: a sampled span waits at most OTEL_BSP_SCHEDULE_DELAY
// milliseconds to be exported, 200 when it is unset (the SDK's own
// default is 5,000).
func TestExportDelay(t *testing.T) {
	for _, tt := range []struct {
		env  map[string]string
		want time.Duration
	}{
		{nil, 200 * time.Millisecond},
		{map[string]string{"OTEL_BSP_SCHEDULE_DELAY": "5000"}, 5 * time.Second},
		{map[string]string{"OTEL_BSP_SCHEDULE_DELAY": "1"}, time.Millisecond},
	} {
		te, _, err := parseTelemetry(mapLookup(tt.env))
		if err != nil {
			t.Fatal(err)
		}
		if got := exportDelay(te); got != tt.want {
			t.Errorf("%v: export delay %v, want %v", tt.env, got, tt.want)
		}
	}
}

// TestSpansExportedWhileServing: with OTEL_BSP_SCHEDULE_DELAY unset, a
// sampled request's span reaches the OTLP receiver while the server runs,
// well before the SDK's own delay of five seconds would send it.
func TestSpansExportedWhileServing(t *testing.T) {
	exported := make(chan struct{}, 1)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/x-protobuf")
		if r.URL.Path == "/v1/traces" {
			select {
			case exported <- struct{}{}:
			default:
			}
		}
	}))
	defer recv.Close()
	h, closeFn := newShippedHandler(t, map[string]string{"ACCESS_LOG": "false",
		"OTEL_EXPORTER_OTLP_ENDPOINT": recv.URL, "OTEL_TRACES_SAMPLER": "always_on"})
	defer closeFn()
	serveQ1(t, h)()
	select {
	case <-exported:
	case <-time.After(3 * time.Second):
		t.Fatal("no span exported within 3 s of the request")
	}
}
