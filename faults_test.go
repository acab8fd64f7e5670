package graft_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/cmd/graft-load/load"
	"github.com/graftgql/graft/schema"
)

// faultHooks are the channels the fault schema's resolvers report on.
type faultHooks struct {
	entered   chan struct{} // block and gate: the resolver started
	cancelled chan struct{} // block: the resolver saw its context end
	gate      chan struct{} // gate: closed to let the resolver return
}

// faultSchema has a resolver that panics, one that waits for its context
// (so the request timeout ends it), one that blocks until the client goes
// away, and one that waits on a gate.
func faultSchema(t testing.TB, h *faultHooks) *schema.Schema {
	t.Helper()
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(context.Context) (string, error) { return "world", nil })
	schema.QueryNoArgs(b, "boom", func(context.Context) (*string, error) { panic("kaboom") })
	schema.QueryNoArgs(b, "slow", func(ctx context.Context) (*string, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	schema.QueryNoArgs(b, "block", func(ctx context.Context) (*string, error) {
		h.entered <- struct{}{}
		<-ctx.Done()
		h.cancelled <- struct{}{}
		return nil, ctx.Err()
	})
	schema.QueryNoArgs(b, "gate", func(context.Context) (string, error) {
		h.entered <- struct{}{}
		<-h.gate
		return "open", nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// faultAnswer is a decoded answer: status, the codes of its errors and
// the raw body.
type faultAnswer struct {
	status int
	codes  []string
	raw    string
}

func faultPost(ctx context.Context, client *http.Client, url, query string) (faultAnswer, error) {
	return faultPostRaw(ctx, client, url, gqlBody(query, "", ""))
}

// faultPostRaw posts a JSON body to url's GraphQL endpoint.
func faultPostRaw(ctx context.Context, client *http.Client, url, body string) (faultAnswer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/graphql", strings.NewReader(body))
	if err != nil {
		return faultAnswer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return faultAnswer{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return faultAnswer{}, err
	}
	var decoded struct {
		Errors []struct {
			Extensions map[string]any `json:"extensions"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(raw, &decoded); err != nil {
		return faultAnswer{}, fmt.Errorf("answer is not JSON: %w: %s", err, raw)
	}
	a := faultAnswer{status: resp.StatusCode, raw: string(raw)}
	for _, e := range decoded.Errors {
		c, _ := e.Extensions["code"].(string)
		a.codes = append(a.codes, c)
	}
	return a, nil
}

// TestResolverPanicsAndTimeoutsUnderLoad sends panicking, timing-out and
// plain queries from many clients at once: each gets its own error or
// data, and the server keeps serving.
func TestResolverPanicsAndTimeoutsUnderLoad(t *testing.T) {
	r, err := graft.NewRouter(faultSchema(t, &faultHooks{}), nil, graft.Config{Logger: discardLogger, Timeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	defer srv.Close()
	goroutines := runtime.NumGoroutine()
	tests := []struct {
		query    string
		wantCode string
		wantData string
	}{
		{query: "{ boom hello }", wantCode: "INTERNAL_SERVER_ERROR", wantData: `"hello":"world"`},
		{query: "{ hello slow }", wantCode: "REQUEST_TIMEOUT", wantData: `"hello":"world"`},
		{query: "{ hello }", wantData: `{"data":{"hello":"world"}}`},
	}
	const clients, perClient = 16, 30
	var failures atomic.Int64
	var wg sync.WaitGroup
	for c := 0; c < clients; c++ {
		wg.Go(func() {
			for i := 0; i < perClient; i++ {
				tc := tests[(c+i)%len(tests)]
				a, err := faultPost(context.Background(), srv.Client(), srv.URL, tc.query)
				switch {
				case err != nil:
					t.Errorf("%s: %v", tc.query, err)
				case a.status != http.StatusOK || !strings.Contains(a.raw, tc.wantData):
					t.Errorf("%s: %d %s", tc.query, a.status, a.raw)
				case tc.wantCode != "" && (len(a.codes) != 1 || a.codes[0] != tc.wantCode):
					t.Errorf("%s: codes %v, want [%s]: %s", tc.query, a.codes, tc.wantCode, a.raw)
				case strings.Contains(a.raw, "kaboom") || strings.Contains(a.raw, "goroutine"):
					t.Errorf("%s: internal detail leaked: %s", tc.query, a.raw)
				default:
					continue
				}
				failures.Add(1)
			}
		})
	}
	wg.Wait()
	if failures.Load() > 0 {
		t.Fatalf("%d of %d requests failed", failures.Load(), clients*perClient)
	}
	if a, err := faultPost(context.Background(), srv.Client(), srv.URL, "{ hello }"); err != nil || a.status != http.StatusOK {
		t.Fatalf("the server stopped serving: %+v %v", a, err)
	}
	srv.Client().CloseIdleConnections()
	if n := load.SettleGoroutines(goroutines+4, 5*time.Second); n > goroutines+4 {
		t.Fatalf("goroutines: %d before the load, %d after", goroutines, n)
	}
}

// TestClientDisconnectCancelsResolvers sends requests whose resolver
// blocks until its context ends, then drops the clients: every resolver
// must see its context cancelled, and no goroutine is left behind.
func TestClientDisconnectCancelsResolvers(t *testing.T) {
	const n = 8
	h := &faultHooks{entered: make(chan struct{}, n), cancelled: make(chan struct{}, n)}
	r, err := graft.NewRouter(faultSchema(t, h), nil, graft.Config{Logger: discardLogger})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	defer srv.Close()
	goroutines := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		go func() {
			_, err := faultPost(ctx, srv.Client(), srv.URL, "{ block }")
			errs <- err
		}()
	}
	guard := time.NewTimer(30 * time.Second)
	defer guard.Stop()
	for i := 0; i < n; i++ {
		select {
		case <-h.entered:
		case <-guard.C:
			t.Fatalf("%d of %d resolvers started", i, n)
		}
	}
	cancel()
	for i := 0; i < n; i++ {
		select {
		case <-h.cancelled:
		case <-guard.C:
			t.Fatalf("%d of %d resolvers saw their context cancelled", i, n)
		}
	}
	for i := 0; i < n; i++ {
		if err := <-errs; !errors.Is(err, context.Canceled) {
			t.Errorf("client error = %v, want context.Canceled", err)
		}
	}
	srv.Client().CloseIdleConnections()
	if got := load.SettleGoroutines(goroutines+4, 5*time.Second); got > goroutines+4 {
		t.Fatalf("goroutines: %d before, %d after the disconnects", goroutines, got)
	}
}

// TestGracefulShutdownDuringLoad shuts graft.Serve down while requests are
// in flight: they complete with their data, and requests made after the
// shutdown began are refused at the connection, not left hanging.
func TestGracefulShutdownDuringLoad(t *testing.T) {
	const inflight = 6
	h := &faultHooks{entered: make(chan struct{}, inflight), gate: make(chan struct{})}
	r, err := graft.NewRouter(faultSchema(t, h), nil, graft.Config{Logger: discardLogger})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() {
		served <- graft.Serve(ctx, r, graft.ServeOptions{Listener: ln, Logger: discardLogger, ShutdownGrace: time.Minute})
	}()
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	results := make(chan faultAnswer, inflight)
	for i := 0; i < inflight; i++ {
		go func() {
			a, err := faultPost(context.Background(), client, url, "{ gate hello }")
			if err != nil {
				a.raw = err.Error()
			}
			results <- a
		}()
	}
	guard := time.NewTimer(30 * time.Second)
	defer guard.Stop()
	for i := 0; i < inflight; i++ {
		select {
		case <-h.entered:
		case <-guard.C:
			t.Fatalf("%d of %d requests reached the resolver", i, inflight)
		}
	}
	cancel()
	// New requests are refused once the listener is closed. Until then a
	// request may still be accepted: it waits at the gate like the others.
	late := 0
	for {
		_, err := faultPost(context.Background(), client, url, "{ hello }")
		if err != nil {
			// Refused at the connection: the dial or the read fails, or a
			// connection accepted as the listener closed is closed before
			// any answer (EOF).
			var op *net.OpError
			if !errors.As(err, &op) && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("a request after shutdown failed with %v, want a connection error", err)
			}
			break
		}
		if late++; late > 10000 {
			t.Fatal("the server kept accepting requests after shutdown began")
		}
		runtime.Gosched()
	}
	close(h.gate)
	for i := 0; i < inflight; i++ {
		a := <-results
		if a.status != http.StatusOK || a.raw != `{"data":{"gate":"open","hello":"world"}}` {
			t.Errorf("in-flight request: %d %s", a.status, a.raw)
		}
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
}
