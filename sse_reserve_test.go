package graft_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/graftgql/graft"
)

// TestSSEReservationsBounded sends 10,000 single-connection SSE
// reservations (PUT, no socket held): one address gets its 10, the
// others' together at most MaxReservations, the rest 503 with
// Retry-After; and reservations take no connection slot, so with
// MaxConnections of 4 a WebSocket and an event stream still connect.
func TestSSEReservationsBounded(t *testing.T) {
	r, _ := chatRouter(t, graft.Config{Logger: quietLogger, Subscriptions: graft.SubscriptionConfig{MaxConnections: 4}})
	reserve := func(addr string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPut, "/graphql", nil)
		req.RemoteAddr = addr
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, req)
		return rec
	}
	created := map[string]int{}
	for i := range 10_000 {
		addr := "10.0.0.1:1"
		if i >= 100 {
			addr = fmt.Sprintf("10.%d.%d.%d:1", i>>16&255, i>>8&255, i&255)
		}
		rec := reserve(addr)
		switch rec.Code {
		case http.StatusCreated:
			created[addr[:strings.LastIndex(addr, ":")]]++
		case http.StatusServiceUnavailable:
			if rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), graft.CodeTooManyConnections) {
				t.Fatalf("refusal %d: %v %s", i, rec.Header(), rec.Body)
			}
		default:
			t.Fatalf("reservation %d: %d %s", i, rec.Code, rec.Body)
		}
	}
	total := 0
	for _, n := range created {
		total += n
	}
	if created["10.0.0.1"] != graft.DefaultMaxReservationsPerAddress || total != graft.DefaultMaxReservations {
		t.Fatalf("one address reserved %d, all %d; want %d and %d", created["10.0.0.1"], total, graft.DefaultMaxReservationsPerAddress, graft.DefaultMaxReservations)
	}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	w := dialWS(t, srv)
	w.init()
	resp := streamPost(t, srv, "text/event-stream", `{"query":"subscription { countdown(from: 0) }"}`)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"countdown":0`) {
		t.Fatalf("an event stream beside the reservations: %d %s", resp.StatusCode, body)
	}
}
