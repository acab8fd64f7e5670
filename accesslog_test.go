package graft_test

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/accesslog"
	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/persisted"
)

// BenchmarkAccessLog serves q1 through the router with each kind of access
// log writing to io.Discard, so the difference to "off" is what the log
// itself costs per request (formatting, the hooks' phase tracking, the
// request ID).
func BenchmarkAccessLog(b *testing.B) {
	s, err := blog.Schema()
	if err != nil {
		b.Fatal(err)
	}
	logs := []struct {
		name string
		log  func() *slog.Logger
	}{
		{"off", func() *slog.Logger { return nil }},
		{"slog-json", func() *slog.Logger { return slog.New(slog.NewJSONHandler(io.Discard, nil)) }},
		{"slog-text", func() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }},
		{"accesslog-json", func() *slog.Logger {
			return slog.New(accesslog.NewHandler(accesslog.NewWriter(io.Discard, accesslog.WriterOptions{}), &accesslog.HandlerOptions{Format: accesslog.JSON}))
		}},
		{"accesslog-text", func() *slog.Logger {
			return slog.New(accesslog.NewHandler(accesslog.NewWriter(io.Discard, accesslog.WriterOptions{}), nil))
		}},
	}
	body := `{"query":"{ hello }"}`
	for _, l := range logs {
		b.Run(l.name, func(b *testing.B) {
			r, err := graft.NewRouter(s, nil, graft.Config{PersistedQueries: &persisted.Options{Mode: persisted.APQ}, AccessLog: l.log(), Logger: quietLogger})
			if err != nil {
				b.Fatal(err)
			}
			req := httptest.NewRequest("POST", "/graphql", nil)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json")
			w := &nopWriter{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				clear(w.h)
				req.Body = readerOf(body)
				req.ContentLength = int64(len(body))
				r.ServeHTTP(w, req)
			}
		})
	}
}

// TestAccessLogFastPath: a logger over an accesslog.Handler writes the
// line slog's own JSON handler writes (the fast path), with the duration
// in milliseconds, and the Writer's Close writes what it buffered.
func TestAccessLogFastPath(t *testing.T) {
	s, err := blog.Schema()
	if err != nil {
		t.Fatal(err)
	}
	var slogLines, fastLines bytes.Buffer
	w := accesslog.NewWriter(&fastLines, accesslog.WriterOptions{FlushInterval: time.Hour})
	for _, l := range []*slog.Logger{
		slog.New(slog.NewJSONHandler(&slogLines, nil)),
		slog.New(accesslog.NewHandler(w, &accesslog.HandlerOptions{Format: accesslog.JSON})),
	} {
		r, err := graft.NewRouter(s, nil, graft.Config{AccessLog: l, Logger: quietLogger})
		if err != nil {
			t.Fatal(err)
		}
		post(t, r, `query Hi { hello }`, "X-Request-ID", "req-7")
	}
	if fastLines.Len() != 0 {
		t.Fatalf("written before Close: %q", fastLines.String())
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	decode := func(b []byte) map[string]any {
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%v: %q", err, b)
		}
		if d, ok := m["duration_ms"].(float64); !ok || d <= 0 {
			t.Fatalf("duration_ms in %q", b)
		}
		delete(m, "time")
		delete(m, "duration_ms")
		return m
	}
	a, b := decode(slogLines.Bytes()), decode(fastLines.Bytes())
	if !reflect.DeepEqual(a, b) || a["request_id"] != "req-7" || a["operation_name"] != "Hi" {
		t.Fatalf("slog %v\nfast %v", a, b)
	}
}
