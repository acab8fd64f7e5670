package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestLoadAndFetch(t *testing.T) {
	tests := []struct {
		name       string
		status     int
		wantErrors bool
	}{
		{"200 answers count as requests", http.StatusOK, false},
		{"other statuses count as errors", http.StatusBadRequest, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				if r.Method != http.MethodPost || r.URL.Path != "/graphql" || r.Header.Get("Content-Type") != "application/json" {
					w.WriteHeader(http.StatusTeapot)
					return
				}
				w.WriteHeader(tt.status)
				_, _ = w.Write(append([]byte("echo:"), body...))
			}))
			defer srv.Close()
			addr := strings.TrimPrefix(srv.URL, "http://")
			req := request(addr, "/graphql", []byte(`{"query":"{hello}"}`))
			status, body, err := fetch(addr, req)
			if err != nil {
				t.Fatal(err)
			}
			if status != tt.status || string(body) != `echo:{"query":"{hello}"}` {
				t.Fatalf("fetch = %d %q", status, body)
			}
			res, err := load(context.Background(), addr, req, 4, 50*time.Millisecond)
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantErrors {
				if res.errors == 0 || res.requests != 0 {
					t.Errorf("requests %d, errors %d: want only errors", res.requests, res.errors)
				}
				return
			}
			if res.requests == 0 || res.errors != 0 || len(res.latencies) != res.requests {
				t.Errorf("requests %d, errors %d, latencies %d", res.requests, res.errors, len(res.latencies))
			}
			if res.percentile(50) > res.percentile(99) {
				t.Errorf("p50 %v above p99 %v", res.percentile(50), res.percentile(99))
			}
		})
	}
}

func TestLoadFailsWithoutServer(t *testing.T) {
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := "127.0.0.1:" + itoa(port)
	if _, err := load(context.Background(), addr, request(addr, "/graphql", nil), 2, 10*time.Millisecond); err == nil {
		t.Error("load against a closed port gave no error")
	}
}

// TestLoadTimeouts: a request left unanswered past requestTimeout counts as
// a timeout (an overloaded server), not as a failed request.
func TestLoadTimeouts(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		<-release
	}))
	defer srv.Close()
	defer close(release)
	old := requestTimeout
	requestTimeout = 50 * time.Millisecond
	defer func() { requestTimeout = old }()
	addr := strings.TrimPrefix(srv.URL, "http://")
	res, err := load(context.Background(), addr, request(addr, "/graphql", []byte(`{}`)), 2, 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if res.timeouts != 2 || res.errors != 0 || res.requests != 0 {
		t.Errorf("timeouts %d, errors %d, requests %d; want 2, 0, 0", res.timeouts, res.errors, res.requests)
	}
}
