//go:build unix

package graft_test

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/persisted"
)

// peakHeap samples the heap in use (live and not yet collected).
type peakHeap struct{ peak uint64 }

func (p *peakHeap) sample() {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	p.peak = max(p.peak, m.HeapAlloc)
}

// TestMemoryBoundedUnderAttack sends, with the default configuration and
// APQ on, distinct 1 MB queries plain and as APQ registrations, then holds
// 20 connections that ask for large answers and never read them. The heap
// stays under 200 MB throughout and { hello } keeps being answered.
//
// By default it sends 100 queries of each kind (8 under -race) and 2 MB
// answers, to stay fast in CI; GRAFT_MEMORY_TEST=full sends 2,000 of each
// and 8 MB answers.
func TestMemoryBoundedUnderAttack(t *testing.T) {
	queries, answerMB := 100, 2
	if raceEnabled {
		queries = 8 // the race detector makes each 1 MB query cost about a second
	}
	if os.Getenv("GRAFT_MEMORY_TEST") == "full" {
		queries, answerMB = 2000, 8
	}
	const limit = 200 << 20
	r, err := graft.NewPersistedQueriesRouter(loadSchema(t, nil, nil), nil, graft.Config{Logger: quietLogger})
	if err != nil {
		t.Fatal(err)
	}
	var heap peakHeap
	hello := func(t *testing.T) {
		t.Helper()
		if got := post(t, r, `{ hello }`); got.status != 200 || got.body.Data["hello"] != "world" {
			t.Fatalf("{ hello }: %d %s", got.status, got.raw)
		}
	}
	// Each query is 1,000,000 bytes, mostly a comment, and distinct.
	pad := strings.Repeat("#", 1_000_000)
	query := func(i int) string {
		head := "# " + strings.Repeat("0", 8) + "\n"
		q := []byte(head + pad[:1_000_000-len(head)-len("\n{ hello }")] + "\n{ hello }")
		n := i
		for j := 9; j >= 2; j-- {
			q[j] = byte('0' + n%10)
			n /= 10
		}
		return string(q)
	}
	serve := func(body []byte) {
		t.Helper()
		req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, req)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"hello":"world"`) {
			t.Fatalf("1 MB query: %d %.300s", rec.Code, rec.Body.String())
		}
	}
	t.Run("plain", func(t *testing.T) {
		for i := range queries {
			body, _ := json.Marshal(map[string]string{"query": query(i)})
			serve(body)
			if i%10 == 0 {
				heap.sample()
			}
		}
		hello(t)
	})
	t.Run("APQ registrations", func(t *testing.T) {
		for i := range queries {
			q := query(queries + i)
			body, _ := json.Marshal(map[string]any{"query": q, "extensions": map[string]any{
				"persistedQuery": map[string]any{"version": 1, "sha256Hash": persisted.Hash(persisted.SHA256, q)}}})
			serve(body)
			if i%10 == 0 {
				heap.sample()
			}
		}
		hello(t)
	})
	t.Run("non-reading clients", func(t *testing.T) {
		srv := newSmallBufferServer(t, r)
		var conns []net.Conn
		defer func() {
			for _, c := range conns {
				c.Close()
			}
		}()
		statuses := map[string]int{}
		for range 20 {
			line, c := nonReader(t, srv.Listener.Addr().String(), "{ big(n: "+itoa(answerMB)+", size: 1000000) }")
			conns = append(conns, c)
			statuses[line]++
			heap.sample()
		}
		t.Logf("answers to the non-reading clients: %v", statuses)
		hello(t)
		heap.sample()
	})
	t.Logf("peak heap %d MiB", heap.peak>>20)
	if heap.peak > limit {
		t.Fatalf("peak heap %d MiB, want under %d MiB", heap.peak>>20, limit>>20)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
