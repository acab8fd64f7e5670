package servers

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"testing"

	"github.com/graftgql/graft/bench/check"
	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/peers/ceiling"
	"github.com/graftgql/graft/bench/workload"
)

// TestServedAnswers holds the in-memory Go servers that serve on a
// listener of their own rather than through a net/http handler (the
// fasthttp ones: ceiling-fasthttp, graft-fasthttp) to the ceiling's
// answers over HTTP, the full queries and, after a registration, the
// hash-only persisted ones.
func TestServedAnswers(t *testing.T) {
	want, err := ceiling.Expected(data.Shared())
	if err != nil {
		t.Fatal(err)
	}
	served := 0
	for _, s := range All() {
		if s.Serve == nil || s.Handler != nil || s.Upstream || s.Tailcall {
			continue
		}
		served++
		t.Run(s.Name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			port := ln.Addr().(*net.TCPAddr).Port
			_ = ln.Close()
			ctx, cancel := context.WithCancel(context.Background())
			ready, done := make(chan struct{}), make(chan error, 1)
			go func() { done <- s.Serve(ctx, Env{Host: "127.0.0.1", Port: port}, func() { close(ready) }) }()
			select {
			case <-ready:
			case err := <-done:
				t.Fatalf("serve: %v", err)
			}
			defer func() {
				cancel()
				if err := <-done; err != nil {
					t.Errorf("serve: %v", err)
				}
			}()
			url := "http://127.0.0.1:" + strconv.Itoa(port) + Path
			post := func(q workload.Query, body []byte, base string) {
				t.Helper()
				res, err := http.Post(url, "application/json", bytes.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				defer res.Body.Close()
				got, _ := io.ReadAll(res.Body)
				if res.StatusCode != http.StatusOK {
					t.Fatalf("%s: status %d: %s", q.Name, res.StatusCode, got)
				}
				if err := check.Answer(q, got, want[base], s.Check); err != nil {
					t.Errorf("%s: %v", q.Name, err)
				}
			}
			for _, q := range workload.Queries() {
				post(q, q.Body(), q.Name)
			}
			if s.APQ {
				for _, q := range workload.PersistedQueries() {
					post(q, q.RegisterBody(), q.Base)
					post(q, q.Body(), q.Base)
				}
			}
		})
	}
	if served < 2 {
		t.Errorf("%d servers served on their own listener, want ceiling-fasthttp and graft-fasthttp", served)
	}
}
