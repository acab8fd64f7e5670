package graft_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/testenv"
	"github.com/graftgql/graft/persisted"
	"github.com/graftgql/graft/persisted/redisstore"
)

// redisCommands counts the commands a client sends.
type redisCommands struct{ n atomic.Int64 }

func (c *redisCommands) DialHook(next redis.DialHook) redis.DialHook { return next }

func (c *redisCommands) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		c.n.Add(1)
		return next(ctx, cmd)
	}
}

func (c *redisCommands) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// TestRedisAPQBoundsOverHTTP: over HTTP with a real Redis, 1 MB
// registrations run but add no key, a small one is stored with the default
// TTL, and while Redis is down requests cost one failed call and then none.
func TestRedisAPQBoundsOverHTTP(t *testing.T) {
	addr, srv := testenv.StartRedis(t)
	ctx := context.Background()
	c := redis.NewClient(&redis.Options{Addr: addr, ContextTimeoutEnabled: true, MaxRetries: -1})
	t.Cleanup(func() { _ = c.Close() })
	counter := &redisCommands{}
	c.AddHook(counter)
	r := newTestRouter(t, graft.Config{MaxBodyBytes: 2 << 20,
		PersistedQueries: &persisted.Options{Store: redisstore.New(c, redisstore.Options{})}})
	register := func(q string) *reply {
		t.Helper()
		return send(t, r, "POST", "/graphql", pqBody(t, q, "sha256Hash", persisted.Hash(persisted.SHA256, q), 1))
	}

	for i := range 20 {
		if got := register(commentQuery(i, 1_000_000)); got.status != 200 || got.body.Data["hello"] != "world" {
			t.Fatalf("1 MB registration %d: %d %.200s", i, got.status, got.raw)
		}
	}
	if n, err := c.DBSize(ctx).Result(); n != 0 || err != nil {
		t.Fatalf("DBSIZE after 1 MB registrations = %d, %v; want 0", n, err)
	}
	small := `{ hello }`
	if got := register(small); got.status != 200 {
		t.Fatalf("small registration: %d %s", got.status, got.raw)
	}
	ttl, err := c.TTL(ctx, redisstore.DefaultPrefix+persisted.Hash(persisted.SHA256, small)).Result()
	if err != nil || ttl <= 23*time.Hour || ttl > redisstore.DefaultTTL {
		t.Fatalf("TTL of the registered query = %v, %v; want about 24h", ttl, err)
	}

	srv.Stop()
	hashOnly := pqGet("", "sha256Hash", persisted.Hash(persisted.SHA256, small))
	if got := send(t, r, "GET", hashOnly, ""); got.code(0) != gqlerr.PersistedQueryNotFound {
		t.Fatalf("first hash-only GET with Redis down: %d %s", got.status, got.raw)
	}
	sent := counter.n.Load()
	for range 20 {
		if got := send(t, r, "GET", hashOnly, ""); got.code(0) != gqlerr.PersistedQueryNotFound {
			t.Fatalf("hash-only GET with Redis down: %d %s", got.status, got.raw)
		}
		if got := register(`{ greeting }`); got.status != 200 || got.body.Data["greeting"] != "hi" {
			t.Fatalf("registration with Redis down: %d %s", got.status, got.raw)
		}
	}
	if n := counter.n.Load() - sent; n != 0 {
		t.Fatalf("%d Redis commands after the first failure, want 0 while the breaker is open", n)
	}
}
