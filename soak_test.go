package graft_test

import (
	"context"
	"flag"
	"net"
	"os"
	"testing"
	"time"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/cmd/graft-load/load"
	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/persisted"
)

var soakDuration = flag.Duration("soak", 0, "run TestSoak for this long (for example -soak=30s); GRAFT_SOAK sets it too")

// soakFor returns how long TestSoak runs: -soak, else GRAFT_SOAK (CI runs
// a short soak that way), else zero.
func soakFor(t *testing.T) time.Duration {
	if *soakDuration > 0 {
		return *soakDuration
	}
	if v := os.Getenv("GRAFT_SOAK"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("GRAFT_SOAK=%q: %v", v, err)
		}
		return d
	}
	return 0
}

// TestSoak drives the blog example, served by graft.Serve on loopback with
// automatic persisted queries in a bounded store, with the load mix of
// cmd/graft-load: every answer must be the one the contract promises, and
// after the run the goroutines come back, the live heap is bounded and the
// store holds no more than its size. It runs only with -soak.
func TestSoak(t *testing.T) {
	duration := soakFor(t)
	if duration <= 0 {
		t.Skip("the soak test runs only with -soak=<duration> or GRAFT_SOAK=<duration>, for example go test -run Soak -soak=30s")
	}
	const storeSize = 128
	s, err := blog.Schema()
	if err != nil {
		t.Fatal(err)
	}
	store, err := persisted.NewMemoryStore(storeSize)
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, graft.Config{Logger: discardLogger, DocumentCacheSize: 64,
		PersistedQueries: &persisted.Options{Mode: persisted.APQ, Store: store}})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- graft.Serve(ctx, r, graft.ServeOptions{Listener: ln, Logger: discardLogger}) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	}()
	url := "http://" + ln.Addr().String()
	if _, err := load.Run(context.Background(), load.Options{URL: url, Clients: 1, MaxRequests: 1}); err != nil {
		t.Fatal(err)
	}
	goroutines := load.SettleGoroutines(0, 200*time.Millisecond)
	heap := load.HeapAfterGC()
	rep, err := load.Run(context.Background(), load.Options{URL: url, Clients: 64, Duration: duration})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", rep)
	if n := rep.UnexpectedCount(); n > 0 {
		t.Errorf("%d unexpected answers", n)
	}
	if rep.Requests == 0 {
		t.Error("no request was answered")
	}
	after := load.SettleGoroutines(goroutines+5, 5*time.Second)
	heapAfter := load.HeapAfterGC()
	t.Logf("goroutines %d before, %d after; live heap %.1f MiB before, %.1f MiB after; store %d of %d",
		goroutines, after, float64(heap)/(1<<20), float64(heapAfter)/(1<<20), store.Len(), storeSize)
	if after > goroutines+5 {
		t.Errorf("goroutines did not come back: %d before, %d after", goroutines, after)
	}
	if heapAfter > heap+128<<20 {
		t.Errorf("live heap grew from %d to %d bytes", heap, heapAfter)
	}
	if store.Len() > storeSize {
		t.Errorf("the store holds %d entries, bound %d", store.Len(), storeSize)
	}
}
