package main

import (
	"context"
	"net"
	"net/http"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/graftserver"
	"github.com/graftgql/graft/grafttest"
	"github.com/graftgql/graft/internal/testenv"
)

// running is cmd/graft's service running in process on a loopback port.
type running struct {
	URL    string
	router *graft.Router
	log    *testenv.Buffer
}

// startServer runs cmd/graft's service, configured from env only, in
// process until the test ends.
func startServer(t *testing.T, env map[string]string) *running {
	t.Helper()
	lookup := func(name string) (string, bool) { v, ok := env[name]; return v, ok }
	svc := service(lookup)
	r := &running{log: &testenv.Buffer{}}
	svc.Stderr = r.log
	svc.Handler = func(api http.Handler) http.Handler {
		r.router, _ = api.(*graft.Router)
		return api
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r.URL = "http://" + ln.Addr().String()
	started := make(chan struct{})
	serve := svc.Serve
	svc.Serve = func(o *graft.ServeOptions) {
		serve(o)
		o.Listener = ln
		onStart := o.OnStart
		o.OnStart = func(url string) { onStart(url); close(started) }
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- graftserver.Run(ctx, svc) }()
	select {
	case <-started:
	case err := <-done:
		cancel()
		_ = ln.Close()
		t.Fatalf("graftserver.Run: %v\n%s", err, r.log.String())
	}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("graftserver.Run: %v", err)
		}
	})
	return r
}

// newTestClient runs the server from env and returns a test client of its
// router and what it logged at start-up.
func newTestClient(t *testing.T, env map[string]string) (*grafttest.Client, string) {
	t.Helper()
	r := startServer(t, env)
	return grafttest.New(r.router), r.log.String()
}
