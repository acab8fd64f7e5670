// Command graft-load drives a graft server on loopback with many
// concurrent clients mixing the benchmark queries q1 to q3, automatic
// persisted query registrations, hits and misses, and invalid requests,
// for a bounded time and count. It prints requests per second and the
// count of each outcome, and fails when any answer breaks the wire
// contract.
//
// Without -url it starts the blog example itself, with automatic persisted
// queries in a bounded memory store, and after the run also checks that
// the goroutine count came back, the heap after GC stayed bounded and the
// store stayed within its size:
//
//	go run ./cmd/graft-load -duration 30s -clients 64
//	go run ./cmd/graft-load -url http://127.0.0.1:4000 -duration 10s
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"time"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/cmd/graft-load/load"
	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/persisted"
)

func main() {
	url := flag.String("url", "", "base URL of a running server; empty starts the blog example in process")
	duration := flag.Duration("duration", 10*time.Second, "how long to send requests")
	requests := flag.Int("requests", 0, "stop after this many requests (0: no bound)")
	clients := flag.Int("clients", 32, "concurrent clients")
	storeSize := flag.Int("store-size", 256, "APQ memory store size of the in-process server")
	cacheSize := flag.Int("document-cache", 128, "document cache size of the in-process server")
	heapBound := flag.Uint64("heap-bound", 128<<20, "live heap allowed after the run, above the heap before it (in-process only)")
	flag.Parse()
	if err := run(*url, *duration, *requests, *clients, *storeSize, *cacheSize, *heapBound); err != nil {
		fmt.Fprintln(os.Stderr, "graft-load:", err)
		os.Exit(1)
	}
}

func run(url string, duration time.Duration, requests, clients, storeSize, cacheSize int, heapBound uint64) error {
	ctx := context.Background()
	if url != "" {
		rep, err := load.Run(ctx, load.Options{URL: url, Clients: clients, Duration: duration, MaxRequests: requests})
		if err != nil {
			return err
		}
		fmt.Print(rep)
		if n := rep.UnexpectedCount(); n > 0 {
			return fmt.Errorf("%d unexpected answers", n)
		}
		return nil
	}
	srv, err := startBlog(storeSize, cacheSize)
	if err != nil {
		return err
	}
	// One request first, so the server's own goroutines are counted.
	if _, err := load.Run(ctx, load.Options{URL: srv.url, Clients: 1, MaxRequests: 1}); err != nil {
		return err
	}
	goroutinesBefore := load.SettleGoroutines(0, 200*time.Millisecond)
	heapBefore := load.HeapAfterGC()
	rep, err := load.Run(ctx, load.Options{URL: srv.url, Clients: clients, Duration: duration, MaxRequests: requests})
	if err != nil {
		return err
	}
	fmt.Print(rep)
	goroutinesAfter := load.SettleGoroutines(goroutinesBefore+5, 5*time.Second)
	heapAfter := load.HeapAfterGC()
	stored := srv.store.Len()
	fmt.Printf("goroutines: %d before, %d after\n", goroutinesBefore, goroutinesAfter)
	fmt.Printf("live heap after GC: %.1f MiB before, %.1f MiB after\n", float64(heapBefore)/(1<<20), float64(heapAfter)/(1<<20))
	fmt.Printf("APQ store: %d entries, bound %d\n", stored, storeSize)
	srv.stop()
	var errs []error
	if n := rep.UnexpectedCount(); n > 0 {
		errs = append(errs, fmt.Errorf("%d unexpected answers", n))
	}
	if goroutinesAfter > goroutinesBefore+5 {
		errs = append(errs, fmt.Errorf("goroutines did not come back: %d before, %d after", goroutinesBefore, goroutinesAfter))
	}
	if heapAfter > heapBefore+heapBound {
		errs = append(errs, fmt.Errorf("live heap grew by %d bytes, bound %d", heapAfter-heapBefore, heapBound))
	}
	if stored > storeSize {
		errs = append(errs, fmt.Errorf("APQ store holds %d entries, bound %d", stored, storeSize))
	}
	return errors.Join(errs...)
}

// server is the in-process blog server.
type server struct {
	url   string
	store *persisted.MemoryStore
	stop  func()
}

func startBlog(storeSize, cacheSize int) (*server, error) {
	s, err := blog.Schema()
	if err != nil {
		return nil, err
	}
	store, err := persisted.NewMemoryStore(storeSize)
	if err != nil {
		return nil, err
	}
	logger := slog.New(slog.DiscardHandler)
	r, err := graft.NewRouter(s, nil, graft.Config{
		Logger:            logger,
		DocumentCacheSize: cacheSize,
		PersistedQueries:  &persisted.Options{Mode: persisted.APQ, Store: store},
	})
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- graft.Serve(ctx, r, graft.ServeOptions{Listener: ln, Logger: logger}) }()
	return &server{
		url:   "http://" + ln.Addr().String(),
		store: store,
		stop: func() {
			cancel()
			<-done
		},
	}, nil
}
