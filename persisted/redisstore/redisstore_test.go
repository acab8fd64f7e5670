package redisstore

import (
	"context"
	"errors"
	"github.com/graftgql/graft/internal/gqlerr"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/graftgql/graft/internal/pqstate"
	"github.com/graftgql/graft/internal/testenv"
	"github.com/graftgql/graft/persisted"
)

const (
	query = "{ hero { name } }"
	other = "{ droid { name } }"
)

var (
	hash      = persisted.Hash(persisted.SHA256, query)
	otherHash = persisted.Hash(persisted.SHA256, other)
)

// newClient returns a client for addr, closed when the test ends. Retries
// are off so that a stopped server fails calls at once.
func newClient(t testing.TB, addr string, contextTimeouts bool) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{
		Addr:                  addr,
		ContextTimeoutEnabled: contextTimeouts,
		MaxRetries:            -1,
		DialerRetries:         1,
		ReadTimeout:           time.Minute,
		WriteTimeout:          time.Minute,
	})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func TestGetSet(t *testing.T) {
	addr, _ := testenv.StartRedis(t)
	ctx := context.Background()
	tests := []struct {
		name  string
		opts  Options
		ctxTO bool
	}{
		{"defaults", Options{}, true},
		{"client without context timeouts", Options{}, false},
		{"custom prefix and local cache", Options{Prefix: "app1:", LocalCacheSize: 8}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClient(t, addr, tt.ctxTO)
			if err := c.FlushAll(ctx).Err(); err != nil {
				t.Fatal(err)
			}
			s := New(c, tt.opts)
			if q, ok, err := s.Get(ctx, hash); q != "" || ok || err != nil {
				t.Fatalf("Get on an empty store = %q, %v, %v; want a miss", q, ok, err)
			}
			if err := s.Set(ctx, hash, query); err != nil {
				t.Fatal(err)
			}
			if q, ok, err := s.Get(ctx, hash); q != query || !ok || err != nil {
				t.Fatalf("Get = %q, %v, %v; want the query", q, ok, err)
			}
			prefix := tt.opts.Prefix
			if prefix == "" {
				prefix = DefaultPrefix
			}
			if s.Key(hash) != prefix+hash {
				t.Errorf("Key = %q, want %q", s.Key(hash), prefix+hash)
			}
			if v, err := c.Get(ctx, prefix+hash).Result(); v != query || err != nil {
				t.Errorf("redis GET %s = %q, %v; want the query", prefix+hash, v, err)
			}
			if ttl, err := c.TTL(ctx, prefix+hash).Result(); ttl <= 23*time.Hour || ttl > DefaultTTL || err != nil {
				t.Errorf("TTL = %v, %v; want the default of 24h", ttl, err)
			}
			if err := s.Ping(ctx); err != nil {
				t.Errorf("Ping: %v", err)
			}
		})
	}
}

func TestSharedBetweenInstances(t *testing.T) {
	addr, _ := testenv.StartRedis(t)
	ctx := context.Background()
	newPQ := func(prefix string) *pqstate.PersistedQueries {
		p, err := pqstate.New(persisted.Options{Store: New(newClient(t, addr, true), Options{Prefix: prefix, LocalCacheSize: 16})})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	first, second, elsewhere := newPQ("shared:"), newPQ("shared:"), newPQ("other:")
	hashOnly := map[string]any{"persistedQuery": map[string]any{"version": float64(1), "sha256Hash": hash}}

	if _, err := second.Resolve(ctx, false, "", hashOnly); !isCode(err, gqlerr.PersistedQueryNotFound) {
		t.Fatalf("before registration: %v, want PERSISTED_QUERY_NOT_FOUND", err)
	}
	res, err := first.Resolve(ctx, false, query, hashOnly)
	if err != nil || !res.Register {
		t.Fatalf("registration request = %+v, %v", res, err)
	}
	first.Register(ctx, "", res.Hash, res.Query)

	res, err = second.Resolve(ctx, false, "", hashOnly)
	if err != nil || res.Query != query {
		t.Fatalf("second instance = %+v, %v; want the registered query", res, err)
	}
	if _, err := elsewhere.Resolve(ctx, false, "", hashOnly); !isCode(err, gqlerr.PersistedQueryNotFound) {
		t.Fatalf("another prefix: %v, want PERSISTED_QUERY_NOT_FOUND", err)
	}
}

func isCode(err error, code string) bool {
	var pe *pqstate.Error
	return errors.As(err, &pe) && pe.Err.Extensions["code"] == code
}

func TestTTL(t *testing.T) {
	addr, _ := testenv.StartRedis(t)
	ctx := context.Background()
	c := newClient(t, addr, true)

	t.Run("the key carries the TTL", func(t *testing.T) {
		s := New(c, Options{TTL: time.Hour})
		if err := s.Set(ctx, hash, query); err != nil {
			t.Fatal(err)
		}
		ttl, err := c.TTL(ctx, s.Key(hash)).Result()
		if err != nil || ttl <= 0 || ttl > time.Hour {
			t.Errorf("TTL = %v, %v; want in (0, 1h]", ttl, err)
		}
	})
	t.Run("a hit refreshes the TTL", func(t *testing.T) {
		s := New(c, Options{TTL: time.Hour})
		if err := s.Set(ctx, hash, query); err != nil {
			t.Fatal(err)
		}
		if err := c.Expire(ctx, s.Key(hash), time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
		if _, ok, err := s.Get(ctx, hash); !ok || err != nil {
			t.Fatalf("Get = %v, %v", ok, err)
		}
		if ttl, err := c.TTL(ctx, s.Key(hash)).Result(); err != nil || ttl <= time.Minute {
			t.Errorf("TTL after a hit = %v, %v; want refreshed to about 1h", ttl, err)
		}
	})
	t.Run("a negative TTL keeps keys", func(t *testing.T) {
		s := New(c, Options{TTL: -1})
		if err := s.Set(ctx, otherHash, other); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Get(ctx, otherHash); err != nil {
			t.Fatal(err)
		}
		if ttl, err := c.TTL(ctx, s.Key(otherHash)).Result(); ttl != -1 || err != nil {
			t.Errorf("TTL = %v, %v; want none (-1)", ttl, err)
		}
		c.Del(ctx, s.Key(otherHash))
	})
	t.Run("the key expires", func(t *testing.T) {
		s := New(c, Options{TTL: 20 * time.Millisecond})
		if err := s.Set(ctx, otherHash, other); err != nil {
			t.Fatal(err)
		}
		// Poll until Redis has expired the key; bounded so a key that never
		// expires fails the test instead of hanging it.
		// EXISTS, unlike Get, does not refresh the TTL.
		for i := 0; ; i++ {
			n, err := c.Exists(ctx, s.Key(otherHash)).Result()
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				if _, ok, err := s.Get(ctx, otherHash); ok || err != nil {
					t.Fatalf("Get after expiry = %v, %v; want a miss", ok, err)
				}
				break
			}
			if i == 1000 {
				t.Fatal("the key never expired")
			}
			time.Sleep(5 * time.Millisecond)
		}
	})
	t.Run("a local entry lives at most the TTL", func(t *testing.T) {
		now := time.Unix(1_000_000, 0)
		s := New(c, Options{TTL: time.Minute, LocalCacheSize: 4})
		s.timeNow = func() time.Time { return now }
		if err := s.Set(ctx, hash, query); err != nil {
			t.Fatal(err)
		}
		if err := c.Del(ctx, s.Key(hash)).Err(); err != nil {
			t.Fatal(err)
		}
		if q, ok, _ := s.Get(ctx, hash); !ok || q != query {
			t.Fatalf("within the TTL the local cache must answer; got %q, %v", q, ok)
		}
		now = now.Add(time.Minute)
		if _, ok, err := s.Get(ctx, hash); ok || err != nil {
			t.Fatalf("after the TTL: found = %v, err = %v; want a miss from Redis", ok, err)
		}
	})
}
