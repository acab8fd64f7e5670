package graft_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/cmd/graft-load/load"
	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/internal/testenv"
	"github.com/graftgql/graft/persisted"
	"github.com/graftgql/graft/persisted/redisstore"
)

// redisFaultTimeout is the store timeout of the fault test. Each request
// is made with a deadline well above it: a request that reaches its
// deadline blocked longer than the store allows. It is long enough that a
// call to a running Redis does not reach it on a loaded machine under
// -race (at 150 ms some did), since the phases with Redis up accept no
// misses.
const redisFaultTimeout = 500 * time.Millisecond

// faultClients is the number of concurrent clients in each phase of the
// fault test.
const faultClients = 8

// TestRedisFaultsUnderLoad serves automatic persisted queries and a
// safelist from one Redis while it runs, stops, restarts, freezes
// (SIGSTOP) and thaws, with concurrent clients throughout. APQ keeps
// answering (a lookup that fails is a miss, the query still runs); the
// safelist answers 503 while Redis is away and recovers after; no request
// outlives the store timeout by much, and no goroutine piles up.
func TestRedisFaultsUnderLoad(t *testing.T) {
	addr, redisServer := testenv.StartRedis(t)
	redis.SetLogger(quietRedisLogger{})
	client := redis.NewClient(&redis.Options{Addr: addr, ContextTimeoutEnabled: true, MaxRetries: -1, DialTimeout: redisFaultTimeout})
	defer client.Close()
	// The circuit breaker is off: this test bounds each request by the
	// store timeout; redisstore's own tests cover the breaker, which would
	// turn one slow call on a loaded machine into seconds of misses.
	store := redisstore.New(client, redisstore.Options{Timeout: redisFaultTimeout, Prefix: "faults:", BreakerCooldown: -1})
	s, err := blog.Schema()
	if err != nil {
		t.Fatal(err)
	}
	apqRouter, err := graft.NewRouter(s, nil, graft.Config{Logger: discardLogger, PersistedQueries: &persisted.Options{Mode: persisted.APQ, Store: store}})
	if err != nil {
		t.Fatal(err)
	}
	safeRouter, err := graft.NewRouter(s, nil, graft.Config{Logger: discardLogger, PersistedQueries: &persisted.Options{Mode: persisted.Safelist, Store: store}})
	if err != nil {
		t.Fatal(err)
	}
	apqSrv, safeSrv := httptest.NewServer(apqRouter), httptest.NewServer(safeRouter)
	defer apqSrv.Close()
	defer safeSrv.Close()
	hash := persisted.Hash(persisted.SHA256, hostileQ1)
	// listQ1 waits until Redis answers (after a restart the client's pool
	// retries its dials in the background for a while), then lists q1.
	listQ1 := func(t *testing.T) {
		t.Helper()
		deadline := time.NewTimer(15 * time.Second)
		defer deadline.Stop()
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for store.Ping(context.Background()) != nil { // store.Ping also closes its circuit breaker
			select {
			case <-deadline.C:
				t.Fatal("Redis did not come back")
			case <-tick.C:
			}
		}
		if err := store.Set(context.Background(), hash, hostileQ1); err != nil {
			t.Fatalf("listing q1: %v", err)
		}
	}
	// warmPool leaves one connection per concurrent client in the client's
	// pool, each having answered a PING, so that a phase with Redis up
	// measures the store and not the clients' dials racing the store
	// timeout on a loaded machine (after a restart, the pool's broken
	// connections are found and dropped here too).
	warmPool := func(t *testing.T) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		for {
			conns := make([]*redis.Conn, faultClients)
			var failed error
			for i := range conns {
				conns[i] = client.Conn()
				if err := conns[i].Ping(ctx).Err(); err != nil && failed == nil {
					failed = err
				}
			}
			for _, c := range conns {
				c.Close()
			}
			if failed == nil {
				return
			}
			if ctx.Err() != nil {
				t.Fatalf("Redis connections did not come back: %v", failed)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	listQ1(t)
	goroutines := runtime.NumGoroutine()

	// Each phase's requests and the answers they may get.
	registerBody := gqlBody(hostileQ1, "", pqExt(`{"version":1,"sha256Hash":"`+hash+`"}`))
	hashOnlyBody := gqlBody("", "", pqExt(`{"version":1,"sha256Hash":"`+hash+`"}`))
	up := map[string][]faultExpect{"apq-register": {{200, ""}}, "apq-hash-only": {{200, ""}}, "safelist": {{200, ""}}}
	down := map[string][]faultExpect{"apq-register": {{200, ""}}, "apq-hash-only": {{200, "PERSISTED_QUERY_NOT_FOUND"}}, "safelist": {{503, "PERSISTED_QUERY_STORE_UNAVAILABLE"}}}
	// While the client's pool reconnects, either answer is right.
	recovering := map[string][]faultExpect{}
	for k := range up {
		recovering[k] = append(append([]faultExpect{}, up[k]...), down[k]...)
	}
	// waitSafelist waits until the safelist answers q1 again, then warms
	// the pool.
	waitSafelist := func(t *testing.T) {
		t.Helper()
		deadline := time.NewTimer(15 * time.Second)
		defer deadline.Stop()
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			a, err := faultPostBody(context.Background(), safeSrv, safeSrv.URL, gqlBody(hostileQ1, "", ""))
			if err == nil && a.status == 200 {
				warmPool(t)
				return
			}
			select {
			case <-deadline.C:
				t.Fatalf("the safelist did not recover: %+v %v", a, err)
			case <-tick.C:
			}
		}
	}
	phases := []struct {
		name   string
		before func(t *testing.T)
		want   map[string][]faultExpect
	}{
		{name: "running", before: warmPool, want: up},
		{name: "stopped", before: func(*testing.T) { redisServer.Stop() }, want: down},
		{name: "restarted", before: func(t *testing.T) { redisServer.Start(); listQ1(t) }, want: recovering},
		{name: "recovered after restart", before: waitSafelist, want: up},
		{name: "paused", before: func(*testing.T) { redisServer.Pause() }, want: down},
		{name: "resumed", before: func(t *testing.T) { redisServer.Resume(); listQ1(t) }, want: recovering},
		{name: "recovered after pause", before: waitSafelist, want: up},
	}
	for _, ph := range phases {
		t.Run(ph.name, func(t *testing.T) {
			if ph.before != nil {
				ph.before(t)
			}
			var mu sync.Mutex
			counts := map[string]int{}
			var wg sync.WaitGroup
			for c := range faultClients {
				wg.Go(func() {
					for i := 0; i < 12; i++ {
						kind, url, body := "apq-register", apqSrv.URL, registerBody
						switch (c + i) % 3 {
						case 1:
							kind, body = "apq-hash-only", hashOnlyBody
						case 2:
							kind, url, body = "safelist", safeSrv.URL, gqlBody(hostileQ1, "", "")
						}
						ctx, cancel := context.WithTimeout(context.Background(), 20*redisFaultTimeout)
						a, err := faultPostBody(ctx, apqSrv, url, body)
						cancel()
						mu.Lock()
						switch {
						case errors.Is(err, context.DeadlineExceeded):
							counts[kind+": blocked past the deadline"]++
						case err != nil:
							counts[kind+": "+err.Error()]++
						case !answerIn(a, ph.want[kind]):
							counts[kind+": unexpected "+a.raw]++
						default:
							counts["ok"]++
						}
						mu.Unlock()
					}
				})
			}
			wg.Wait()
			for k, n := range counts {
				if k != "ok" {
					t.Errorf("%d × %s", n, k)
				}
			}
		})
	}
	apqSrv.Client().CloseIdleConnections()
	if n := load.SettleGoroutines(goroutines+8, 5*time.Second); n > goroutines+8 {
		t.Fatalf("goroutines: %d before the faults, %d after", goroutines, n)
	}
}

// faultExpect is one accepted answer: a status and the code of the first
// error ("" for an answer with data).
type faultExpect struct {
	status int
	code   string
}

// answerIn reports whether a is one of the accepted answers.
func answerIn(a faultAnswer, want []faultExpect) bool {
	for _, w := range want {
		code := ""
		if len(a.codes) > 0 {
			code = a.codes[0]
		}
		if a.status == w.status && code == w.code && (w.code != "" || strings.Contains(a.raw, `"hello":"world"`)) {
			return true
		}
	}
	return false
}

// faultPostBody posts a raw JSON body with srv's client.
func faultPostBody(ctx context.Context, srv *httptest.Server, url, body string) (faultAnswer, error) {
	return faultPostRaw(ctx, srv.Client(), url, body)
}

// quietRedisLogger keeps go-redis' dial failures, expected here, out of
// the test output.
type quietRedisLogger struct{}

func (quietRedisLogger) Printf(context.Context, string, ...any) {}
