package graft_test

import (
	"io"
	"log/slog"
	"net"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/chat"
	"github.com/graftgql/graft/pubsub/redispubsub"
)

// TestSubscriptionSourceErrorsMasked subscribes to the chat example
// served over Redis Pub/Sub while Redis is unreachable (a closed port on
// loopback), with MaskErrors on, over every streaming transport: the
// client gets the generic internal error, never the dial error with the
// internal address; the log has it.
func TestSubscriptionSourceErrorsMasked(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now: dials are refused
	client := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	t.Cleanup(func() { client.Close() })
	ps := redispubsub.New(client, redispubsub.Options{})
	t.Cleanup(func() { ps.Close() })
	s, err := chat.New(ps).Schema()
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	var logMu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		logMu.Lock()
		defer logMu.Unlock()
		return log.Write(p)
	}), nil))
	r, err := graft.NewRouter(s, nil, graft.Config{MaskErrors: true, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	const body = `{"query":"subscription { messageAdded(room: \"r\") { text } }"}`
	for _, tc := range []struct {
		name string
		read func(t *testing.T) string
	}{
		{"WebSocket", func(t *testing.T) string {
			w := dialWS(t, srv)
			w.init()
			w.send(`{"id":"1","type":"subscribe","payload":` + body + `}`)
			return w.read()
		}},
		{"SSE", func(t *testing.T) string {
			b, _ := io.ReadAll(streamPost(t, srv, "text/event-stream", body).Body)
			return string(b)
		}},
		{"multipart", func(t *testing.T) string {
			b, _ := io.ReadAll(streamPost(t, srv, `multipart/mixed;subscriptionSpec="1.0"`, body).Body)
			return string(b)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.read(t)
			if strings.Contains(got, addr) || strings.Contains(got, "dial tcp") || !strings.Contains(got, graft.CodeInternalServerError) {
				t.Fatalf("the client got %q", got)
			}
		})
	}
	logMu.Lock()
	defer logMu.Unlock()
	if !strings.Contains(log.String(), addr) {
		t.Errorf("the log lacks the dial error: %s", log.String())
	}
}

// writerFunc adapts a function to io.Writer.
type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
