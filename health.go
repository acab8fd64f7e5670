package graft

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

// DefaultCheckTimeout bounds a readiness check whose Timeout is zero.
const DefaultCheckTimeout = 2 * time.Second

// Check is one readiness probe, for example a Redis PING. Fn returns nil
// when the dependency is usable.
type Check struct {
	// Name keys the check's error in the readiness body.
	Name string
	// Fn runs the probe. Its context is cancelled after Timeout.
	Fn func(ctx context.Context) error
	// Timeout bounds Fn; zero means DefaultCheckTimeout.
	Timeout time.Duration
	// Logger receives the failure's detail (the error text, which may name
	// addresses and hosts); nil means slog.Default(). The readiness body
	// never carries it.
	Logger *slog.Logger
}

// checkUnavailable is what the readiness body says of a failing check.
const checkUnavailable = "unavailable"

// Health returns a liveness handler: it always answers 200
// {"status":"ok"}, so it only tells that the process serves HTTP. Register
// it beside the router, for example at /health.
func Health() http.Handler {
	body := []byte(`{"status":"ok"}` + "\n")
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeHealthJSON(w, http.StatusOK, body)
	})
}

// Ready returns a readiness handler. It runs every check concurrently,
// each bounded by its timeout, and answers 200 {"status":"ready"} when all
// pass, else 503 {"status":"not ready","checks":{"<name>":"unavailable"}}
// naming each failing check. The error itself is logged (Check.Logger),
// never sent: it may name internal addresses. Load balancers use it to
// keep traffic away from an instance whose dependencies are down.
func Ready(checks ...Check) http.Handler {
	ready := []byte(`{"status":"ready"}` + "\n")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		failed := runReadyChecks(r.Context(), checks)
		if len(failed) == 0 {
			writeHealthJSON(w, http.StatusOK, ready)
			return
		}
		body, err := json.Marshal(struct {
			Status string            `json:"status"`
			Checks map[string]string `json:"checks"`
		}{"not ready", failed})
		if err != nil {
			body = []byte(`{"status":"not ready"}`)
		}
		writeHealthJSON(w, http.StatusServiceUnavailable, append(body, '\n'))
	})
}

// runReadyChecks runs the checks concurrently, logs each failure with its
// error and returns the failing ones by name, each as "unavailable".
func runReadyChecks(ctx context.Context, checks []Check) map[string]string {
	var (
		mu     sync.Mutex
		wg     sync.WaitGroup
		failed map[string]string
	)
	for _, c := range checks {
		wg.Go(func() {
			if err := runReadyCheck(ctx, c); err != nil {
				logger := c.Logger
				if logger == nil {
					logger = slog.Default()
				}
				logger.WarnContext(ctx, "graft: readiness check failed", slog.String("check", c.Name), slog.Any("err", err))
				mu.Lock()
				if failed == nil {
					failed = make(map[string]string)
				}
				failed[c.Name] = checkUnavailable
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return failed
}

// runReadyCheck runs one check with its timeout. A check that does not return
// in time is reported as timed out; a panicking check is reported as failed.
func runReadyCheck(ctx context.Context, c Check) (err error) {
	if c.Fn == nil {
		return nil
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultCheckTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- errCheckPanicked
			}
		}()
		done <- c.Fn(ctx)
	}()
	select {
	case err = <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// checkError is the error of a check that failed without its own error.
type checkError string

func (e checkError) Error() string { return string(e) }

const errCheckPanicked = checkError("check panicked")

// writeHealthJSON writes a small JSON body that must never be cached.
func writeHealthJSON(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
