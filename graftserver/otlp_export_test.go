package graftserver

import (
	"compress/gzip"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestOTLPExportConfig: graftserver exports the spans itself for OTLP
// over HTTP in protobuf, to where the SDK's exporter would and with the
// headers and delay asked for, and leaves every other setting to the
// SDK's exporter.
func TestOTLPExportConfig(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		own     bool
		url     string
		headers map[string]string
	}{
		{"base endpoint", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, true, "http://collector:4318/v1/traces", nil},
		{"base endpoint with a path", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "https://collector/otlp/"}, true, "https://collector/otlp/v1/traces", nil},
		{"traces endpoint as is", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://a:4318", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://b:4318/custom"}, true, "http://b:4318/custom", nil},
		{"default endpoint", map[string]string{"OTEL_TRACES_EXPORTER": "otlp"}, true, "http://localhost:4318/v1/traces", nil},
		{"headers", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_EXPORTER_OTLP_HEADERS": "Authorization=Bearer%20k, x-team = graft"},
			true, "http://c:4318/v1/traces", map[string]string{"Authorization": "Bearer k", "x-team": "graft"}},
		{"explicit http/protobuf", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"}, true, "http://c:4318/v1/traces", nil},
		{"grpc", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}, false, "", nil},
		{"grpc for traces", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4317", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "grpc"}, false, "", nil},
		{"traces headers replace the others", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_EXPORTER_OTLP_HEADERS": "a=1,b=2", "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "b=3"},
			true, "http://c:4318/v1/traces", map[string]string{"b": "3"}},
		{"certificate", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "https://c:4318", "OTEL_EXPORTER_OTLP_CERTIFICATE": "/ca.pem"}, false, "", nil},
		{"client key", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "https://c:4318", "OTEL_EXPORTER_OTLP_TRACES_CLIENT_KEY": "/key.pem"}, false, "", nil},
		{"export timeout", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "https://c:4318", "OTEL_BSP_EXPORT_TIMEOUT": "100"}, false, "", nil},
		{"console", map[string]string{"OTEL_TRACES_EXPORTER": "console"}, false, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			te, exporter, err := parseTelemetry(mapLookup(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			cfg, own := otlpConfig(te, exporter, mapLookup(tt.env))
			if own != tt.own {
				t.Fatalf("own export = %v, want %v", own, tt.own)
			}
			if !own {
				return
			}
			if cfg.URL != tt.url || cfg.Delay != defaultExportDelay {
				t.Errorf("URL %q, delay %v; want %q, %v", cfg.URL, cfg.Delay, tt.url, defaultExportDelay)
			}
			if len(cfg.Headers) != len(tt.headers) {
				t.Errorf("headers %v, want %v", cfg.Headers, tt.headers)
			}
			for k, v := range tt.headers {
				if cfg.Headers[k] != v {
					t.Errorf("header %s = %q, want %q", k, cfg.Headers[k], v)
				}
			}
		})
	}
}

// TestOTLPExportSettings: compression, timeout and the batch's sizes are
// read, the traces' own variable winning; out-of-range values stop the
// server at start-up.
func TestOTLPExportSettings(t *testing.T) {
	env := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_EXPORTER_OTLP_COMPRESSION": "none",
		"OTEL_EXPORTER_OTLP_TRACES_COMPRESSION": "gzip", "OTEL_EXPORTER_OTLP_TIMEOUT": "3000", "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT": "2500",
		"OTEL_BSP_SCHEDULE_DELAY": "50", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "64", "OTEL_BSP_MAX_QUEUE_SIZE": "256"}
	te, exporter, err := parseTelemetry(mapLookup(env))
	if err != nil {
		t.Fatal(err)
	}
	cfg, own := otlpConfig(te, exporter, mapLookup(env))
	if !own || !cfg.Gzip || cfg.Timeout != 2500*time.Millisecond || cfg.Delay != 50*time.Millisecond || cfg.MaxBatch != 64 || cfg.MaxQueue != 256 {
		t.Errorf("own %v, config %+v", own, cfg)
	}
	for _, bad := range []map[string]string{
		{"OTEL_EXPORTER_OTLP_COMPRESSION": "zstd"},
		{"OTEL_EXPORTER_OTLP_TRACES_TIMEOUT": "0"},
		{"OTEL_BSP_MAX_QUEUE_SIZE": "99999999"},
		{"OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "600", "OTEL_BSP_MAX_QUEUE_SIZE": "500"},
		{"OTEL_EXPORTER_OTLP_TRACES_HEADERS": "novalue"},
	} {
		if _, _, err := parseTelemetry(mapLookup(bad)); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

// TestShippedTracingExports: the server cmd/graft builds with tracing
// sampled at 100% posts each request's span to the collector's
// /v1/traces in protobuf, within the export delay: plain, and
// gzip-compressed with the headers asked for.
func TestShippedTracingExports(t *testing.T) {
	for _, tt := range []struct {
		name     string
		env      map[string]string
		encoding string // Content-Encoding
		team     string // the X-Team header
	}{
		{"plain", nil, "", ""},
		{"gzip with headers", map[string]string{"OTEL_EXPORTER_OTLP_COMPRESSION": "gzip", "OTEL_EXPORTER_OTLP_HEADERS": "X-Team=graft"}, "gzip", "graft"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := make(chan string, 16)
			col := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var body io.Reader = r.Body
				if r.Header.Get("Content-Encoding") == "gzip" {
					zr, err := gzip.NewReader(r.Body)
					if err != nil {
						got <- "not gzip: " + err.Error()
						return
					}
					body = zr
				}
				b, _ := io.ReadAll(body)
				got <- strings.Join([]string{r.URL.Path, r.Header.Get("Content-Type"), r.Header.Get("Content-Encoding"), r.Header.Get("X-Team"), string(b)}, " ")
			}))
			defer col.Close()
			env := map[string]string{"ACCESS_LOG": "false", "OTEL_EXPORTER_OTLP_ENDPOINT": col.URL,
				"OTEL_TRACES_SAMPLER": "always_on", "OTEL_BSP_SCHEDULE_DELAY": "10"}
			maps.Copy(env, tt.env)
			h, closeFn := newShippedHandler(t, env)
			defer closeFn()
			serveQ1(t, h)()
			select {
			case s := <-got:
				want := strings.Join([]string{"/v1/traces", "application/x-protobuf", tt.encoding, tt.team, ""}, " ")
				if !strings.HasPrefix(s, want) || !strings.Contains(s, "query") || !strings.Contains(s, "graphql.parsed") {
					t.Errorf("export %q: want q1's span after %q", s, want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("no export within 10 s")
			}
		})
	}
}
