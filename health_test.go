package graft_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/internal/testenv"
)

func TestHealthAndReady(t *testing.T) {
	ok := graft.Check{Name: "db", Fn: func(context.Context) error { return nil }}
	logs := &testenv.Buffer{}
	logger := slog.New(slog.NewTextHandler(logs, nil))
	refused := graft.Check{Name: "redis", Logger: logger, Fn: func(context.Context) error {
		return errors.New("dial tcp 127.0.0.1:6379: connection refused")
	}}
	hangs := graft.Check{Name: "slow", Timeout: time.Millisecond, Fn: func(ctx context.Context) error {
		<-ctx.Done()
		return ctx.Err()
	}}
	ignoresContext := graft.Check{Name: "stuck", Timeout: time.Millisecond, Fn: func(context.Context) error {
		select {}
	}}
	panics := graft.Check{Name: "broken", Fn: func(context.Context) error { panic("boom") }}

	tests := []struct {
		name       string
		handler    http.Handler
		wantStatus int
		wantBody   string
		wantChecks map[string]string
	}{
		{"health is ok", graft.Health(), 200, "ok", nil},
		{"ready without checks", graft.Ready(), 200, "ready", nil},
		{"ready when checks pass", graft.Ready(ok, ok), 200, "ready", nil},
		{"failing check is named, its error is not", graft.Ready(ok, refused), 503, "not ready",
			map[string]string{"redis": "unavailable"}},
		{"check over its timeout fails", graft.Ready(hangs), 503, "not ready",
			map[string]string{"slow": "unavailable"}},
		{"check ignoring its context still times out", graft.Ready(ignoresContext), 503, "not ready",
			map[string]string{"stuck": "unavailable"}},
		{"panicking check fails", graft.Ready(panics, refused), 503, "not ready",
			map[string]string{"broken": "unavailable", "redis": "unavailable"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			tt.handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/health", nil))
			if rec.Code != tt.wantStatus {
				t.Errorf("status = %d, want %d", rec.Code, tt.wantStatus)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Errorf("Content-Type = %q", ct)
			}
			if cc := rec.Header().Get("Cache-Control"); cc != "no-store" {
				t.Errorf("Cache-Control = %q, want no-store", cc)
			}
			var body struct {
				Status string            `json:"status"`
				Checks map[string]string `json:"checks"`
			}
			if strings.Contains(rec.Body.String(), "127.0.0.1") || strings.Contains(rec.Body.String(), "refused") {
				t.Errorf("the body quotes a dependency error: %s", rec.Body)
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
				t.Fatalf("body %q: %v", rec.Body, err)
			}
			if body.Status != tt.wantBody {
				t.Errorf("status field = %q, want %q", body.Status, tt.wantBody)
			}
			if len(body.Checks) != len(tt.wantChecks) {
				t.Errorf("checks = %v, want %v", body.Checks, tt.wantChecks)
			}
			for name, want := range tt.wantChecks {
				if body.Checks[name] != want {
					t.Errorf("checks[%q] = %q, want %q", name, body.Checks[name], want)
				}
			}
		})
	}
	if l := logs.String(); !strings.Contains(l, "check=redis") || !strings.Contains(l, "dial tcp 127.0.0.1:6379: connection refused") {
		t.Errorf("the log lacks the check's detail:\n%s", l)
	}
}
