package redisstore

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/pqstate"
	"github.com/graftgql/graft/internal/testenv"
	"github.com/graftgql/graft/persisted"
)

// commandCounter counts the commands a client sends to Redis.
type commandCounter struct{ n atomic.Int64 }

func (c *commandCounter) DialHook(next redis.DialHook) redis.DialHook { return next }

func (c *commandCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		c.n.Add(1)
		return next(ctx, cmd)
	}
}

func (c *commandCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// TestBreakerWhileRedisHangs: after the first call that times out, calls
// fail at once without reaching Redis, until the cooldown ends and a trial
// call succeeds.
func TestBreakerWhileRedisHangs(t *testing.T) {
	addr, srv := testenv.StartRedis(t)
	ctx := context.Background()
	c := newClient(t, addr, true)
	counter := &commandCounter{}
	c.AddHook(counter)
	now := time.Unix(1_000_000, 0)
	s := New(c, Options{Timeout: 100 * time.Millisecond, BreakerCooldown: time.Minute})
	s.timeNow = func() time.Time { return now }
	if err := s.Set(ctx, hash, query); err != nil {
		t.Fatal(err)
	}

	srv.Pause()
	if _, _, err := s.Get(ctx, hash); !isTimeout(err) {
		t.Fatalf("first Get while Redis hangs = %v, want a timeout", err)
	}
	sent := counter.n.Load()
	for range 20 {
		if _, _, err := s.Get(ctx, hash); !errors.Is(err, ErrCircuitOpen) {
			t.Fatalf("Get with the breaker open = %v, want ErrCircuitOpen", err)
		}
		if err := s.Set(ctx, otherHash, other); !errors.Is(err, ErrCircuitOpen) {
			t.Fatalf("Set with the breaker open = %v, want ErrCircuitOpen", err)
		}
	}
	if got := counter.n.Load(); got != sent {
		t.Fatalf("%d commands reached Redis with the breaker open, want 0", got-sent)
	}
	srv.Resume()

	now = now.Add(time.Minute) // the cooldown is over: one trial call
	if q, ok, err := s.Get(ctx, hash); !ok || err != nil || q != query {
		t.Fatalf("trial Get = %q, %v, %v; want the query", q, ok, err)
	}
	if err := s.Set(ctx, otherHash, other); err != nil {
		t.Fatalf("Set after recovery: %v", err)
	}
}

// TestBreakerWhileRedisIsDown: with Redis stopped, APQ requests cost one
// failed call and then none; readiness keeps asking Redis and reports the
// truth; once Redis is back, a successful Ping closes the breaker.
func TestBreakerWhileRedisIsDown(t *testing.T) {
	addr, srv := testenv.StartRedis(t)
	ctx := context.Background()
	c := newClient(t, addr, true)
	counter := &commandCounter{}
	c.AddHook(counter)
	s := New(c, Options{BreakerCooldown: time.Hour})
	logs := &testenv.Buffer{}
	p, err := pqstate.New(persisted.Options{Store: s, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	hashOnly := map[string]any{"persistedQuery": map[string]any{"version": float64(1), "sha256Hash": hash}}

	srv.Stop()
	if err := s.Ping(ctx); err == nil {
		t.Fatal("Ping with Redis stopped succeeded")
	}
	sent := counter.n.Load()
	for range 20 {
		if _, err := p.Resolve(ctx, false, "", hashOnly); !isCode(err, gqlerr.PersistedQueryNotFound) {
			t.Fatalf("hash-only request = %v, want PERSISTED_QUERY_NOT_FOUND", err)
		}
		res, err := p.Resolve(ctx, false, query, hashOnly)
		if err != nil || res.Query != query {
			t.Fatalf("registration request = %+v, %v; want the query to run", res, err)
		}
		p.Register(ctx, "", res.Hash, res.Query)
	}
	if got := counter.n.Load(); got != sent {
		t.Fatalf("%d commands reached Redis with the breaker open, want 0", got-sent)
	}
	// The failure that opened the breaker was the Ping's; the refused
	// calls are logged at debug level only, not once per request.
	if l := logs.String(); l != "" {
		t.Fatalf("calls refused by the breaker were logged above debug:\n%s", l)
	}
	if !errors.Is(ErrCircuitOpen, persisted.ErrUnavailable) {
		t.Fatal("ErrCircuitOpen does not wrap persisted.ErrUnavailable")
	}
	if err := s.Ping(ctx); err == nil || errors.Is(err, ErrCircuitOpen) {
		t.Fatalf("Ping with Redis down = %v; want a real failure, not the breaker's", err)
	}

	srv.Start()
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("Ping with Redis back: %v", err)
	}
	res, err := p.Resolve(ctx, false, query, hashOnly)
	if err != nil {
		t.Fatal(err)
	}
	p.Register(ctx, "", res.Hash, res.Query)
	if res, err := p.Resolve(ctx, false, "", hashOnly); err != nil || res.Query != query {
		t.Fatalf("hash-only request after recovery = %+v, %v", res, err)
	}
}

// TestLargeQueriesNeverReachRedis: registrations over MaxQueryBytes run but
// add nothing to Redis.
func TestLargeQueriesNeverReachRedis(t *testing.T) {
	addr, _ := testenv.StartRedis(t)
	ctx := context.Background()
	c := newClient(t, addr, true)
	p, err := pqstate.New(persisted.Options{Store: New(c, Options{}), Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		q := "# " + strings.Repeat("x", 1<<20) + "\n{ n" + string(rune('a'+i)) + " }"
		h := persisted.Hash(persisted.SHA256, q)
		ext := map[string]any{"persistedQuery": map[string]any{"version": float64(1), "sha256Hash": h}}
		res, err := p.Resolve(ctx, false, q, ext)
		if err != nil || !res.Register {
			t.Fatalf("registration %d = %+v, %v", i, res, err)
		}
		p.Register(ctx, "", res.Hash, res.Query)
	}
	if n, err := c.DBSize(ctx).Result(); n != 0 || err != nil {
		t.Fatalf("DBSIZE = %d, %v; want no key for queries over MaxQueryBytes", n, err)
	}
}
