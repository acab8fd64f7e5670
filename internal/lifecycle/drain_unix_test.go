//go:build unix

package lifecycle

import (
	"context"
	"log/slog"
	"os"
	"syscall"
	"testing"
	"time"
)

// TestRunDrainsBeforeShutdown checks the drain delay: OnShutdown runs as
// shutdown begins, the server is not shut down during the delay, and a
// second signal ends the delay.
func TestRunDrainsBeforeShutdown(t *testing.T) {
	rec := &recorder{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopped := make(chan struct{})
	srv := Server{
		Serve:         func() error { <-stopped; return nil },
		Shutdown:      func(context.Context) error { rec.add("shutdown"); close(stopped); return nil },
		Close:         func() error { rec.add("close"); return nil },
		CloseListener: func() error { return nil },
	}
	onShutdown := func() {
		rec.add("onshutdown")
		// The delay is an hour: only the second signal ends it. Run
		// catches SIGTERM, so the test process is not stopped by it.
		if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
			t.Error(err)
		}
	}
	err := Run(ctx, srv, nil, Options{URL: "u", OnStart: func(string) { rec.add("onstart"); cancel() },
		OnShutdown: onShutdown, Delay: time.Hour, Grace: time.Second, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Errorf("Run: %v", err)
	}
	if got := rec.String(); got != "onstart,onshutdown,shutdown" {
		t.Errorf("events = %s, want onstart,onshutdown,shutdown", got)
	}
}
