package redislimit_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/internal/testenv"
	"github.com/graftgql/graft/ratelimit"
	"github.com/graftgql/graft/ratelimit/redislimit"
	"github.com/graftgql/graft/schema"
)

// router returns a router limited to budget points a minute per client
// address, its spending in the Redis at addr (a client of its own, as
// another instance would have).
func router(t *testing.T, addr string, budget int64) *graft.Router {
	t.Helper()
	client := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { client.Close() })
	l, err := ratelimit.New(ratelimit.Options{Budget: budget, Store: redislimit.New(client, redislimit.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(context.Context) (string, error) { return "world", nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	cfg := graft.Config{}
	l.Install(&cfg)
	r, err := graft.NewRouter(s, nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func post(h http.Handler, addr string) int {
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(`{"query":"{ a: hello b: hello }"}`))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = addr
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code
}

// TestSharedBudget: two routers sharing one redis-server enforce one
// budget. A client spends its 100 points (operations of cost 2) through
// both at once, 40 concurrent requests each: exactly 50 are answered
// and the rest refused with 429, whichever router served them; another
// client's budget is untouched.
func TestSharedBudget(t *testing.T) {
	addr, _ := testenv.StartRedis(t)
	a, b := router(t, addr, 100), router(t, addr, 100)
	var mu sync.Mutex
	statuses := map[int]int{}
	var wg sync.WaitGroup
	for i := range 80 {
		h := a
		if i%2 == 1 {
			h = b
		}
		wg.Go(func() {
			s := post(h, "10.0.0.1:1")
			mu.Lock()
			statuses[s]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if statuses[200] != 50 || statuses[429] != 30 {
		t.Fatalf("statuses %v, want 50 answered and 30 refused", statuses)
	}
	if s := post(b, "10.0.0.2:1"); s != 200 {
		t.Fatalf("another client: %d", s)
	}
}

// TestStoreWindow: a key's spending lives for its window in Redis.
func TestStoreWindow(t *testing.T) {
	addr, _ := testenv.StartRedis(t)
	client := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { client.Close() })
	s := redislimit.New(client, redislimit.Options{Prefix: "t:"})
	ctx := context.Background()
	u, err := s.Spend(ctx, "k", 7, 10, time.Minute)
	if err != nil || !u.Allowed || u.Spent != 7 || time.Until(u.Reset) < 50*time.Second {
		t.Fatalf("%+v %v", u, err)
	}
	if u, _ := s.Spend(ctx, "k", 4, 10, time.Minute); u.Allowed || u.Spent != 7 {
		t.Fatalf("over the budget: %+v", u)
	}
	if u, _ := s.Spend(ctx, "k", -20, 10, time.Minute); !u.Allowed || u.Spent != 0 {
		t.Fatalf("give back: %+v", u)
	}
	if ttl := client.PTTL(ctx, "t:k").Val(); ttl <= 0 || ttl > time.Minute {
		t.Fatalf("the key's TTL is %v", ttl)
	}
	long := strings.Repeat("x", 10_000)
	if _, err := s.Spend(ctx, long, 1, 10, time.Minute); err != nil {
		t.Fatal(err)
	}
	keys := client.Keys(ctx, "t:*").Val()
	for _, k := range keys {
		if len(k) > 80 {
			t.Fatalf("a key of %d bytes is stored", len(k))
		}
	}
}

// TestRedisDown: with Redis unreachable, the store answers an error and
// the limiter lets the operation through.
func TestRedisDown(t *testing.T) {
	addr, srv := testenv.StartRedis(t)
	r := router(t, addr, 1)
	srv.Stop()
	if s := post(r, "10.0.0.1:1"); s != 200 {
		t.Fatalf("with Redis down: %d", s)
	}
}
