package lifecycle

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestURL(t *testing.T) {
	tcp := &net.TCPAddr{IP: net.IPv4zero, Port: 4000}
	tests := []struct {
		host string
		addr net.Addr
		want string
	}{
		{"", tcp, "http://localhost:4000"},
		{"0.0.0.0", tcp, "http://localhost:4000"},
		{"::", tcp, "http://localhost:4000"},
		{"127.0.0.1", tcp, "http://127.0.0.1:4000"},
		{"api.internal", tcp, "http://api.internal:4000"},
		{"::1", tcp, "http://[::1]:4000"},
		{"127.0.0.1", &net.UnixAddr{Name: "x:5"}, "http://127.0.0.1:5"},
	}
	for _, tt := range tests {
		if got := URL(tt.host, tt.addr); got != tt.want {
			t.Errorf("URL(%q, %v) = %q, want %q", tt.host, tt.addr, got, tt.want)
		}
	}
}

// recorder collects lifecycle events from several goroutines.
type recorder struct {
	mu     sync.Mutex
	events []string
}

func (r *recorder) add(e string) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
}

// String returns the events without "serve", whose place depends on when
// the serving goroutine runs.
func (r *recorder) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		if e != "serve" {
			out = append(out, e)
		}
	}
	return strings.Join(out, ",")
}

// fakeLayer records Start and Stop.
type fakeLayer struct {
	rec               *recorder
	startErr, stopErr error
}

func (l fakeLayer) Start(context.Context) error { l.rec.add("start"); return l.startErr }
func (l fakeLayer) Stop(context.Context) error  { l.rec.add("stop"); return l.stopErr }

func TestRunOrder(t *testing.T) {
	tests := []struct {
		name       string
		startErr   error
		stopErr    error
		serveErr   error
		wantEvents string
		wantErr    string
	}{
		{"clean run", nil, nil, nil, "start,onstart,shutdown,stop", ""},
		{"layer fails to start", errors.New("no db"), nil, nil, "start,closeListener", "no db"},
		{"server fails", nil, nil, errors.New("accept: too many files"), "start,onstart,shutdown,stop", "too many files"},
		{"layer fails to stop", nil, errors.New("flush failed"), nil, "start,onstart,shutdown,stop", "flush failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			stopped := make(chan struct{})
			srv := Server{
				Serve: func() error {
					rec.add("serve")
					if tt.serveErr != nil {
						return tt.serveErr
					}
					<-stopped
					return nil
				},
				Shutdown: func(context.Context) error {
					rec.add("shutdown")
					if tt.serveErr == nil {
						close(stopped)
					}
					return nil
				},
				Close:         func() error { rec.add("close"); return nil },
				CloseListener: func() error { rec.add("closeListener"); return nil },
			}
			onStart := func(string) {
				rec.add("onstart")
				if tt.serveErr == nil {
					cancel()
				}
			}
			err := Run(ctx, srv, fakeLayer{rec: rec, startErr: tt.startErr, stopErr: tt.stopErr},
				Options{URL: "http://localhost:1", OnStart: onStart, Grace: time.Second, Logger: slog.New(slog.DiscardHandler)})
			if tt.wantErr == "" && err != nil {
				t.Errorf("Run: %v", err)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("Run error = %v, want %q", err, tt.wantErr)
			}
			if got := rec.String(); got != tt.wantEvents {
				t.Errorf("events = %s, want %s", got, tt.wantEvents)
			}
		})
	}
}

func TestRunClosesAfterGrace(t *testing.T) {
	rec := &recorder{}
	ctx, cancel := context.WithCancel(context.Background())
	closed := make(chan struct{})
	srv := Server{
		Serve: func() error { <-closed; return nil },
		Shutdown: func(ctx context.Context) error {
			rec.add("shutdown")
			<-ctx.Done()
			return ctx.Err()
		},
		Close:         func() error { rec.add("close"); close(closed); return nil },
		CloseListener: func() error { return nil },
	}
	err := Run(ctx, srv, nil, Options{URL: "u", OnStart: func(string) { cancel() }, Grace: time.Millisecond,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Errorf("Run after the grace period: %v, want nil", err)
	}
	if got := rec.String(); got != "shutdown,close" {
		t.Errorf("events = %s, want shutdown,close", got)
	}
}
