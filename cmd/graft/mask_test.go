package main

import (
	"net"
	"strings"
	"testing"
)

// TestSubscriptionDialErrorMasked serves the chat example over a Redis
// that cannot be reached, with the server's defaults (masking on): a
// subscription over SSE answers the masked internal error, never the dial
// error with the internal address, which the log has.
func TestSubscriptionDialErrorMasked(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	srv := startServer(t, map[string]string{"GRAFT_EXAMPLE": "chat", "REDIS_URL": "redis://" + addr})
	_, _, body := call(t, "POST", srv.URL+"/graphql", `{"query":"subscription { messageAdded(room: \"r\") { text } }"}`,
		map[string]string{"Content-Type": "application/json", "Accept": "text/event-stream"})
	if strings.Contains(body, addr) || strings.Contains(body, "dial tcp") || !strings.Contains(body, "INTERNAL_SERVER_ERROR") {
		t.Fatalf("the client got %q", body)
	}
	if !strings.Contains(srv.log.String(), addr) {
		t.Errorf("the log lacks the dial error: %s", srv.log.String())
	}
}
