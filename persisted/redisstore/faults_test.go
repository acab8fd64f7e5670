package redisstore

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/graftgql/graft/internal/gqlerr"

	"github.com/graftgql/graft/internal/pqstate"
	"github.com/graftgql/graft/internal/testenv"
	"github.com/graftgql/graft/persisted"
)

// TestRedisStoppedMidRun follows one APQ and one safelist server through a
// Redis outage and back.
func TestRedisStoppedMidRun(t *testing.T) {
	addr, srv := testenv.StartRedis(t)
	ctx := context.Background()
	logs := &testenv.Buffer{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})) // calls refused by the breaker log at debug
	store := New(newClient(t, addr, true), Options{Timeout: 2 * time.Second})
	apq, err := pqstate.New(persisted.Options{Store: store, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	safelist, err := pqstate.New(persisted.Options{Mode: persisted.Safelist, Store: store, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	hashOnly := map[string]any{"persistedQuery": map[string]any{"version": float64(1), "sha256Hash": hash}}

	register := func() {
		t.Helper()
		res, err := apq.Resolve(ctx, false, query, hashOnly)
		if err != nil || !res.Register {
			t.Fatalf("registration request = %+v, %v", res, err)
		}
		apq.Register(ctx, "", res.Hash, res.Query)
	}
	hit := func(p *pqstate.PersistedQueries) {
		t.Helper()
		res, err := p.Resolve(ctx, false, "", hashOnly)
		if err != nil || res.Query != query {
			t.Fatalf("hash-only request = %+v, %v; want the stored query", res, err)
		}
	}

	register()
	hit(apq)
	hit(safelist)

	srv.Stop()

	t.Run("APQ hash only is a miss", func(t *testing.T) {
		_, err := apq.Resolve(ctx, false, "", hashOnly)
		if !isCode(err, gqlerr.PersistedQueryNotFound) {
			t.Fatalf("err = %v, want PERSISTED_QUERY_NOT_FOUND", err)
		}
	})
	t.Run("APQ with the query keeps serving", func(t *testing.T) {
		res, err := apq.Resolve(ctx, false, query, hashOnly)
		if err != nil || res.Query != query || !res.Register {
			t.Fatalf("res = %+v, err = %v; want the query to run", res, err)
		}
		apq.Register(ctx, "", res.Hash, res.Query) // logged, not fatal
	})
	t.Run("APQ plain queries are untouched", func(t *testing.T) {
		res, err := apq.Resolve(ctx, false, other, nil)
		if err != nil || res.Query != other {
			t.Fatalf("res = %+v, err = %v", res, err)
		}
	})
	t.Run("safelist fails closed", func(t *testing.T) {
		for _, q := range []string{"", query} {
			ext := hashOnly
			if q != "" {
				ext = nil
			}
			_, err := safelist.Resolve(ctx, false, q, ext)
			var pe *pqstate.Error
			if !errors.As(err, &pe) || pe.Status != http.StatusServiceUnavailable || pe.Err.Extensions["code"] != gqlerr.PersistedQueryStoreUnavailable {
				t.Fatalf("err = %v, want 503 PERSISTED_QUERY_STORE_UNAVAILABLE", err)
			}
		}
	})
	t.Run("both are logged", func(t *testing.T) {
		for _, want := range []string{"treating it as a miss", "it was not registered", "safelist store unavailable"} {
			if !strings.Contains(logs.String(), want) {
				t.Errorf("log lacks %q:\n%s", want, logs.String())
			}
		}
	})

	srv.Start() // an empty Redis again: nothing was persisted
	// A readiness probe reaches Redis whatever the breaker says, and its
	// success closes the breaker.
	if err := store.Ping(ctx); err != nil {
		t.Fatalf("Ping after the restart: %v", err)
	}

	t.Run("recovery", func(t *testing.T) {
		if _, err := apq.Resolve(ctx, false, "", hashOnly); !isCode(err, gqlerr.PersistedQueryNotFound) {
			t.Fatalf("err = %v, want PERSISTED_QUERY_NOT_FOUND from the empty Redis", err)
		}
		register()
		hit(apq)
		hit(safelist)
	})
}

// TestRedisPaused checks that a hung Redis costs a call no more than the
// timeout, whether or not the client honours context deadlines itself.
func TestRedisPaused(t *testing.T) {
	addr, srv := testenv.StartRedis(t)
	ctx := context.Background()
	for _, ctxTO := range []bool{true, false} {
		name := "client without context timeouts"
		if ctxTO {
			name = "client with context timeouts"
		}
		t.Run(name, func(t *testing.T) {
			// The client's own read timeout is a minute: only the store's
			// timeout can end these calls.
			s := New(newClient(t, addr, ctxTO), Options{Timeout: 100 * time.Millisecond, BreakerCooldown: -1})
			// The setup write gets the default timeout: only the calls
			// made while Redis is paused are under test.
			if err := New(newClient(t, addr, ctxTO), Options{}).Set(ctx, hash, query); err != nil {
				t.Fatal(err)
			}
			srv.Pause()
			_, ok, err := s.Get(ctx, hash)
			setErr := s.Set(ctx, otherHash, other)
			srv.Resume()
			if ok || err == nil || setErr == nil {
				t.Fatalf("Get while paused = %v, %v; Set = %v; want errors", ok, err, setErr)
			}
			for _, e := range []error{err, setErr} {
				if !isTimeout(e) {
					t.Errorf("error %v is not a timeout", e)
				}
			}
		})
	}
}

func isTimeout(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var te interface{ Timeout() bool }
	return errors.As(err, &te) && te.Timeout()
}

func quietLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }
