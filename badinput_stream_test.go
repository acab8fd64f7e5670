package graft_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/graftgql/graft"
)

// endless is a request body that never ends: `{"query":"` followed by
// spaces forever. It counts what was read from it.
type endless struct{ read atomic.Int64 }

func (e *endless) Read(p []byte) (int, error) {
	n := copy(p, `{"query":"`)
	if e.read.Load() > 0 {
		n = 0
	}
	for i := n; i < len(p); i++ {
		p[i] = ' '
	}
	e.read.Add(int64(len(p)))
	return len(p), nil
}

// TestEndlessBodyIsRefusedAtTheLimit sends a body that never ends: the
// router must answer 413 once the limit is crossed, having read about the
// limit and not more.
func TestEndlessBodyIsRefusedAtTheLimit(t *testing.T) {
	r := hostileRouter(t, "blog")
	limit := r.Config().MaxBodyBytes
	body := &endless{}
	req := httptest.NewRequest(http.MethodPost, "/graphql", io.NopCloser(body))
	req.ContentLength = -1
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("status = %d, want 413: %s", rec.Code, rec.Body)
	}
	a := checkHostileAnswer(t, rec.Code, rec.Body.Bytes())
	if a.code() != "PAYLOAD_TOO_LARGE" {
		t.Fatalf("code = %v", a.code())
	}
	if got := body.read.Load(); got > 2*limit+64<<10 {
		t.Fatalf("read %d bytes of the body, limit %d", got, limit)
	}
}

// TestSlowClientsAreDisconnected trickles headers, then a body, a few
// bytes at a time to a real server configured as graft.Serve configures
// it, with short timeouts: the server must close the connection rather
// than wait for the client. It asserts on the connection closing, not on
// elapsed time.
func TestSlowClientsAreDisconnected(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- graft.Serve(ctx, hostileRouter(t, "blog"), graft.ServeOptions{
			Listener:          ln,
			ReadHeaderTimeout: 200 * time.Millisecond,
			ReadTimeout:       400 * time.Millisecond,
			Logger:            discardLogger,
		})
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	}()
	addr := ln.Addr().String()
	body := `{"query":"{ hello }"}`
	tests := []struct {
		name string
		head string // sent at once
		drip string // then sent a few bytes at a time
	}{
		{name: "headers trickled", drip: "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Pad: " + strings.Repeat("a", 4096)},
		{name: "body trickled", head: "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n", drip: strings.Repeat(body, 5000)},
		{name: "headers never finished", head: "POST /graphql HTTP/1.1\r\nHost: x\r\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := io.WriteString(conn, tc.head); err != nil {
				t.Fatal(err)
			}
			closed := make(chan struct{})
			go func() {
				// The server closes (possibly after a 408 or 400): reading
				// reaches EOF or a reset.
				_, _ = io.Copy(io.Discard, bufio.NewReader(conn))
				close(closed)
			}()
			drip := tc.drip
			tick := time.NewTicker(20 * time.Millisecond)
			defer tick.Stop()
			guard := time.NewTimer(30 * time.Second)
			defer guard.Stop()
			for {
				select {
				case <-closed:
					return
				case <-guard.C:
					t.Fatal("the server kept the slow connection open")
				case <-tick.C:
					if len(drip) == 0 {
						continue
					}
					n := min(3, len(drip))
					if _, err := io.WriteString(conn, drip[:n]); err != nil {
						var ne net.Error
						if errors.As(err, &ne) || errors.Is(err, net.ErrClosed) || strings.Contains(err.Error(), "reset") || strings.Contains(err.Error(), "broken pipe") {
							<-closed
							return
						}
						t.Fatalf("write: %v", err)
					}
					drip = drip[n:]
				}
			}
		})
	}
}

// TestHostileRequestMemory bounds the bytes allocated while answering
// the most expensive rows of the suite, in process, one at a time.
func TestHostileRequestMemory(t *testing.T) {
	if !validationBudgetInstalled(t) {
		t.Skip("needs the validation budget in internal/exec.Prepare")
	}
	exploding := "{ hero { " + strings.Repeat("friends { ", 12) + "name" + strings.Repeat(" }", 12) + " } }"
	tests := []struct {
		name     string
		router   string
		body     string
		maxBytes uint64
	}{
		{name: "one million tokens (2 MB body)", router: "big", body: gqlBody("{"+strings.Repeat("a ", 1000000)+"}", "", ""), maxBytes: 32 << 20},
		{name: "ten thousand copies of one field", router: "lax", body: gqlBody("{"+strings.Repeat("hello ", 10000)+"}", "", ""), maxBytes: 8 << 20},
		{name: "ten-thousand-fragment chain", router: "lax", body: gqlBody("{ ...F0 } "+repeatf(10000, "fragment F%d on Query { hello ...F%d }")+" fragment F10000 on Query { hello }", "", ""), maxBytes: 32 << 20},
		{name: "ten thousand bad directives", router: "lax", body: gqlBody("{ hello "+strings.Repeat("@bad ", 10000)+"}", "", ""), maxBytes: 32 << 20},
		{name: "a response that would be 95 MB", router: "starwars", body: gqlBody(exploding, "", ""), maxBytes: 256 << 20},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := hostileRouter(t, tc.router)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			r.ServeHTTP(rec, req)
			runtime.ReadMemStats(&after)
			checkHostileAnswer(t, rec.Code, rec.Body.Bytes())
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("status %d, %d bytes answered, %d MiB allocated", rec.Code, rec.Body.Len(), alloc>>20)
			if alloc > tc.maxBytes {
				t.Fatalf("allocated %d MiB, bound %d MiB", alloc>>20, tc.maxBytes>>20)
			}
		})
	}
}
