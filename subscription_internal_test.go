package graft

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/transport/httpstream"
	"github.com/graftgql/graft/internal/transport/sse"
	"github.com/graftgql/graft/internal/transport/ws"
)

// The streaming transports' dispatch runs on every request to the GraphQL
// path: for a plain JSON request it must not allocate.
func TestStreamDispatchAllocatesNothingForJSON(t *testing.T) {
	r := &Router{sse: sse.New(sse.Config{Reservations: true}, nil, nil)}
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/graphql-response+json, application/json")
	allocs := testing.AllocsPerRun(100, func() {
		if ws.Match(req) || r.sse.Match(req) || httpstream.Match(req.Header.Values("Accept")) != nil {
			t.Fatal("a JSON request was taken for a stream")
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per request", allocs)
	}
}
