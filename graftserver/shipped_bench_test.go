package graftserver

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/pubsub"
	"github.com/graftgql/graft/schema"
)

// discardWriter is a ResponseWriter that keeps the status and drops the
// body, reused across requests.
type discardWriter struct {
	h      http.Header
	status int
	n      int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) WriteHeader(s int)           { w.status = s }
func (w *discardWriter) Write(b []byte) (int, error) { w.n += len(b); return len(b), nil }

// shippedConfigs are the environments the bench's graft-shipped entries
// run cmd/graft with (sink: the OTLP receiver's URL).
func shippedConfigs(sink string) []struct {
	name string
	env  map[string]string
} {
	return []struct {
		name string
		env  map[string]string
	}{
		{"nolog", map[string]string{"ACCESS_LOG": "false"}},
		{"log", map[string]string{}},
		{"metrics", map[string]string{"ACCESS_LOG": "false", "METRICS_ENABLED": "true"}},
		{"tracing-1pct", map[string]string{"ACCESS_LOG": "false", "OTEL_TRACES_EXPORTER": "otlp",
			"OTEL_TRACES_SAMPLER": "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0.01",
			"OTEL_EXPORTER_OTLP_ENDPOINT": sink}},
	}
}

// newShippedHandler builds the handler of a server with env over the
// blog example, as cmd/graft serves it, and its closer.
func newShippedHandler(tb testing.TB, env map[string]string) (http.Handler, func()) {
	tb.Helper()
	for k, v := range env {
		tb.Setenv(k, v) // the OpenTelemetry SDK reads OTEL_* from the process
	}
	svc := Service{Schema: func(pubsub.PubSub) (*schema.Schema, error) { return blog.Schema() }}
	srv, err := newServer(context.Background(), svc, mapLookup(env), io.Discard)
	if err != nil {
		tb.Fatal(err)
	}
	return srv.opts.Handler, srv.close
}

// otlpSink is an OTLP/HTTP receiver that discards every export.
func otlpSink(tb testing.TB) string {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	tb.Cleanup(s.Close)
	return s.URL
}

// serveQ1 returns a function that serves q1 ({ hello }) through h as a
// keep-alive client's POST, reusing the request.
func serveQ1(tb testing.TB, h http.Handler) func() {
	body := []byte(`{"query":"{ hello }"}`)
	rd := bytes.NewReader(body)
	req := httptest.NewRequest(http.MethodPost, "/graphql", io.NopCloser(rd))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/graphql-response+json")
	req.RemoteAddr = "127.0.0.1:40000"
	req.ContentLength = int64(len(body))
	w := &discardWriter{h: http.Header{}}
	return func() {
		rd.Reset(body)
		clear(w.h)
		w.status = 0
		h.ServeHTTP(w, req)
		if w.status != 0 && w.status != http.StatusOK {
			tb.Fatalf("status %d", w.status)
		}
	}
}

// BenchmarkShippedQ1 serves q1 through the handler cmd/graft builds,
// with each of the bench's graft-shipped configurations: what the access
// log, metrics and tracing sampled at 1% cost a request beside none.
func BenchmarkShippedQ1(b *testing.B) {
	for _, c := range shippedConfigs(otlpSink(b)) {
		b.Run(c.name, func(b *testing.B) {
			h, closeFn := newShippedHandler(b, c.env)
			defer closeFn()
			serve := serveQ1(b, h)
			b.ReportAllocs()
			for b.Loop() {
				serve()
			}
		})
	}
}
