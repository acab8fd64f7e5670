package graft

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unsafe"

	"github.com/graftgql/graft/internal/testenv"
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

// TestOperationDeliveryLine: what the delivery of a shared event reads of
// an operation (feed, plain, observed) lies in its first 32 bytes. Objects
// of its size class (a multiple of 32 bytes) start at a cache line's start
// or middle, so those 32 bytes are one line: the delivery to each
// subscriber reads one line of its operation.
func TestOperationDeliveryLine(t *testing.T) {
	var op operation
	testenv.Layout(t, "operation", unsafe.Sizeof(op), 0, 0, 32, map[string]uintptr{
		"feed":     unsafe.Offsetof(op.feed) + unsafe.Sizeof(op.feed),
		"plain":    unsafe.Offsetof(op.plain) + 1,
		"observed": unsafe.Offsetof(op.observed) + 1,
	})
}
