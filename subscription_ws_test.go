package graft_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/chat"
	"github.com/graftgql/graft/limits"
	"github.com/graftgql/graft/pubsub"
)

// chatServer serves the chat example with cfg.
func chatServer(t *testing.T, cfg graft.Config) (*httptest.Server, *graft.Router) {
	t.Helper()
	srv, r, _ := chatServerPS(t, cfg)
	return srv, r
}

// chatServerPS is chatServer that also returns the chat's PubSub.
func chatServerPS(t *testing.T, cfg graft.Config) (*httptest.Server, *graft.Router, *pubsub.Memory) {
	t.Helper()
	r, ps := chatRouter(t, cfg)
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return srv, r, ps
}

// chatRouter returns a router over the chat example with cfg, and the
// chat's PubSub.
func chatRouter(t *testing.T, cfg graft.Config) (*graft.Router, *pubsub.Memory) {
	t.Helper()
	ps := pubsub.NewMemory(pubsub.Options{})
	s, err := chat.New(ps).Schema()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r, ps
}

// waitSubscribers waits until topic has n subscribers: a WebSocket
// subscription starts asynchronously after its subscribe message.
func waitSubscribers(t *testing.T, ps *pubsub.Memory, topic string, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for ps.Subscribers(topic) != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d subscribers of %s, want %d", ps.Subscribers(topic), topic, n)
		}
		runtime.Gosched()
	}
}

// wsClient is a raw graphql-transport-ws client: it sends and reads
// protocol messages as text, with no protocol logic of its own.
type wsClient struct {
	t *testing.T
	c *websocket.Conn
}

func dialWS(t *testing.T, srv *httptest.Server, protocols ...string) *wsClient {
	t.Helper()
	if protocols == nil {
		protocols = []string{"graphql-transport-ws"}
	}
	return dialWSWith(t, "ws"+strings.TrimPrefix(srv.URL, "http")+"/graphql", &websocket.DialOptions{Subprotocols: protocols})
}

// dialWSWith dials the WebSocket URL u with opts.
func dialWSWith(t *testing.T, u string, opts *websocket.DialOptions) *wsClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, u, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.CloseNow() })
	return &wsClient{t: t, c: c}
}

func (w *wsClient) send(msg string) {
	w.t.Helper()
	if err := w.c.Write(context.Background(), websocket.MessageText, []byte(msg)); err != nil {
		w.t.Fatalf("send %s: %v", msg, err)
	}
}

// read returns the next message; it fails the test when the socket
// closes.
func (w *wsClient) read() string {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, b, err := w.c.Read(ctx)
	if err != nil {
		w.t.Fatalf("read: %v", err)
	}
	return string(b)
}

func (w *wsClient) expect(want string) {
	w.t.Helper()
	if got := w.read(); got != want {
		w.t.Fatalf("\n got %s\nwant %s", got, want)
	}
}

// expectClose reads until the server closes the socket and checks the
// close code and reason.
func (w *wsClient) expectClose(code websocket.StatusCode, reason string) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		_, b, err := w.c.Read(ctx)
		if err == nil {
			continue
		}
		var ce websocket.CloseError
		if !errors.As(err, &ce) {
			w.t.Fatalf("read ended with %v (after %q), want close %d", err, b, code)
		}
		if ce.Code != code || ce.Reason != reason {
			w.t.Fatalf("closed with %d %q, want %d %q", ce.Code, ce.Reason, code, reason)
		}
		return
	}
}

func (w *wsClient) init() {
	w.t.Helper()
	w.send(`{"type":"connection_init"}`)
	w.expect(`{"type":"connection_ack"}`)
}

// waitGoroutines waits until the goroutine count is back to base.
func waitGoroutines(t *testing.T, base int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, want %d:\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
		runtime.Gosched()
	}
}

func TestWebSocketCountdown(t *testing.T) {
	srv, _ := chatServer(t, graft.Config{})
	w := dialWS(t, srv)
	w.init()
	w.send(`{"id":"1","type":"subscribe","payload":{"query":"subscription { countdown(from: 2) }"}}`)
	w.expect(`{"id":"1","type":"next","payload":{"data":{"countdown":2}}}`)
	w.expect(`{"id":"1","type":"next","payload":{"data":{"countdown":1}}}`)
	w.expect(`{"id":"1","type":"next","payload":{"data":{"countdown":0}}}`)
	w.expect(`{"id":"1","type":"complete"}`)
}

func TestWebSocketQueriesMutationsAndMessages(t *testing.T) {
	srv, _, ps := chatServerPS(t, graft.Config{})
	sub := dialWS(t, srv)
	sub.init()
	sub.send(`{"id":"s","type":"subscribe","payload":{"query":"subscription($r: String!) { messageAdded(room: $r) { room author text } }","variables":{"r":"go"}}}`)
	waitSubscribers(t, ps, "chat:go", 1)
	post := dialWS(t, srv)
	post.init()
	post.send(`{"id":"m","type":"subscribe","payload":{"query":"mutation { postMessage(room: \"go\", author: \"ann\", text: \"hi\") { text } }"}}`)
	post.expect(`{"id":"m","type":"next","payload":{"data":{"postMessage":{"text":"hi"}}}}`)
	post.expect(`{"id":"m","type":"complete"}`)
	sub.expect(`{"id":"s","type":"next","payload":{"data":{"messageAdded":{"room":"go","author":"ann","text":"hi"}}}}`)
	post.send(`{"id":"q","type":"subscribe","payload":{"query":"{ messages(room: \"go\") { author text } }"}}`)
	post.expect(`{"id":"q","type":"next","payload":{"data":{"messages":[{"author":"ann","text":"hi"}]}}}`)
	post.expect(`{"id":"q","type":"complete"}`)
	// The client stops the subscription; the id may then be used again.
	sub.send(`{"id":"s","type":"complete"}`)
	sub.send(`{"id":"s","type":"subscribe","payload":{"query":"subscription { countdown(from: 0) }"}}`)
	sub.expect(`{"id":"s","type":"next","payload":{"data":{"countdown":0}}}`)
	sub.expect(`{"id":"s","type":"complete"}`)
}

func TestWebSocketRequestErrorsAnswerTheOperation(t *testing.T) {
	srv, _ := chatServer(t, graft.Config{Complexity: limits.Config{MaxDepth: 1}})
	w := dialWS(t, srv)
	w.init()
	tests := []struct{ name, payload, code string }{
		{"syntax error", `{"query":"subscription {"}`, "GRAPHQL_PARSE_FAILED"},
		{"validation error", `{"query":"subscription { nope }"}`, "GRAPHQL_VALIDATION_FAILED"},
		{"bad variables", `{"query":"subscription($f: Int!) { countdown(from: $f) }"}`, "BAD_USER_INPUT"},
		{"a limit", `{"query":"subscription { messageAdded(room: \"x\") { id } }"}`, "COMPLEXITY_LIMIT_EXCEEDED"},
		{"bad payload", `{"query":1}`, "BAD_REQUEST"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := string(rune('a' + i))
			w.send(`{"id":"` + id + `","type":"subscribe","payload":` + tt.payload + `}`)
			var m struct {
				ID      string
				Type    string
				Payload []struct{ Extensions struct{ Code string } }
			}
			if err := json.Unmarshal([]byte(w.read()), &m); err != nil {
				t.Fatal(err)
			}
			if m.ID != id || m.Type != "error" || len(m.Payload) == 0 || m.Payload[0].Extensions.Code != tt.code {
				t.Fatalf("got %+v, want an error message with code %s", m, tt.code)
			}
			// No complete follows the error: the next message is the pong.
			w.send(`{"type":"ping"}`)
			w.expect(`{"type":"pong"}`)
		})
	}
}

func TestWebSocketCloseCodes(t *testing.T) {
	reject := func(ctx context.Context, p map[string]any) (context.Context, error) {
		if p["token"] != "secret" {
			return nil, errors.New("no")
		}
		return ctx, nil
	}
	// The shared server waits long for connection_init, so a slow machine
	// never turns another case into 4408; the 4408 case has its own server.
	srv, _ := chatServer(t, graft.Config{Subscriptions: graft.SubscriptionConfig{OnConnect: reject, InitTimeout: time.Minute}})
	t.Run("4400 invalid message", func(t *testing.T) {
		w := dialWS(t, srv)
		w.send(`{"type":`)
		w.expectClose(4400, "Invalid message received")
	})
	t.Run("4400 unknown type", func(t *testing.T) {
		w := dialWS(t, srv)
		w.send(`{"type":"hello"}`)
		w.expectClose(4400, "Invalid message received")
	})
	t.Run("4400 subscribe without id", func(t *testing.T) {
		w := dialWS(t, srv)
		w.send(`{"type":"connection_init","payload":{"token":"secret"}}`)
		w.expect(`{"type":"connection_ack"}`)
		w.send(`{"type":"subscribe","payload":{"query":"{ messages(room: \"x\") { id } }"}}`)
		w.expectClose(4400, "Invalid message received")
	})
	t.Run("4401 subscribe before init", func(t *testing.T) {
		w := dialWS(t, srv)
		w.send(`{"id":"1","type":"subscribe","payload":{"query":"subscription { countdown(from: 1) }"}}`)
		w.expectClose(4401, "Unauthorized")
	})
	t.Run("4403 OnConnect rejects", func(t *testing.T) {
		w := dialWS(t, srv)
		w.send(`{"type":"connection_init","payload":{"token":"wrong"}}`)
		w.expectClose(4403, "Forbidden")
	})
	t.Run("4408 init timeout", func(t *testing.T) {
		quick, _ := chatServer(t, graft.Config{Subscriptions: graft.SubscriptionConfig{InitTimeout: 50 * time.Millisecond}})
		w := dialWS(t, quick)
		w.expectClose(4408, "Connection initialisation timeout")
	})
	t.Run("4409 duplicate id", func(t *testing.T) {
		w := dialWS(t, srv)
		w.send(`{"type":"connection_init","payload":{"token":"secret"}}`)
		w.expect(`{"type":"connection_ack"}`)
		w.send(`{"id":"1","type":"subscribe","payload":{"query":"subscription { messageAdded(room: \"x\") { id } }"}}`)
		w.send(`{"id":"1","type":"subscribe","payload":{"query":"subscription { messageAdded(room: \"x\") { id } }"}}`)
		w.expectClose(4409, "Subscriber for 1 already exists")
	})
	t.Run("4429 second init", func(t *testing.T) {
		w := dialWS(t, srv)
		w.send(`{"type":"connection_init","payload":{"token":"secret"}}`)
		w.expect(`{"type":"connection_ack"}`)
		w.send(`{"type":"connection_init","payload":{"token":"secret"}}`)
		w.expectClose(4429, "Too many initialisation requests")
	})
	t.Run("4406 without the subprotocol", func(t *testing.T) {
		w := dialWS(t, srv, "graphql-ws")
		w.expectClose(4406, "Subprotocol not acceptable")
	})
}

func TestWebSocketKeepAlivePing(t *testing.T) {
	srv, _ := chatServer(t, graft.Config{Subscriptions: graft.SubscriptionConfig{KeepAlive: 10 * time.Millisecond}})
	w := dialWS(t, srv)
	w.init()
	w.expect(`{"type":"ping"}`)
	w.send(`{"type":"pong"}`)
	w.expect(`{"type":"ping"}`)
}

func TestWebSocketBounds(t *testing.T) {
	srv, _ := chatServer(t, graft.Config{Subscriptions: graft.SubscriptionConfig{MaxSubscriptionsPerConnection: 1, MaxConnections: 1}})
	w := dialWS(t, srv)
	w.init()
	w.send(`{"id":"1","type":"subscribe","payload":{"query":"subscription { messageAdded(room: \"x\") { id } }"}}`)
	w.send(`{"id":"2","type":"subscribe","payload":{"query":"subscription { messageAdded(room: \"x\") { id } }"}}`)
	w.expect(`{"id":"2","type":"error","payload":[{"message":"Too many subscriptions: complete one first","extensions":{"code":"TOO_MANY_SUBSCRIPTIONS"}}]}`)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/graphql",
		&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err == nil || resp == nil || resp.StatusCode != 503 {
		t.Fatalf("second connection: %v %v, want 503", err, resp)
	}
}

func TestWebSocketShutdownCompletesAndLeavesNothing(t *testing.T) {
	base := runtime.NumGoroutine()
	srv, r := chatServer(t, graft.Config{})
	w := dialWS(t, srv)
	w.init()
	w.send(`{"id":"1","type":"subscribe","payload":{"query":"subscription { messageAdded(room: \"x\") { id } }"}}`)
	w.send(`{"id":"2","type":"subscribe","payload":{"query":"subscription { countdown(from: 1000000) }"}}`)
	w.expect(`{"id":"2","type":"next","payload":{"data":{"countdown":1000000}}}`)
	r.CloseSubscriptions()
	got := map[string]bool{}
	for len(got) < 2 {
		var m struct{ ID, Type string }
		_ = json.Unmarshal([]byte(w.read()), &m)
		if m.Type == "complete" {
			got[m.ID] = true
		}
	}
	w.expectClose(websocket.StatusGoingAway, "Server shutting down")
	srv.Close()
	srv.CloseClientConnections()
	waitGoroutines(t, base)
}

func TestWebSocketClientLeavingStopsResolvers(t *testing.T) {
	srv, _ := chatServer(t, graft.Config{})
	base := runtime.NumGoroutine()
	w := dialWS(t, srv)
	w.init()
	w.send(`{"id":"1","type":"subscribe","payload":{"query":"subscription { messageAdded(room: \"x\") { id } }"}}`)
	w.send(`{"id":"2","type":"subscribe","payload":{"query":"subscription { countdown(from: 1000000) }"}}`)
	w.expect(`{"id":"2","type":"next","payload":{"data":{"countdown":1000000}}}`)
	_ = w.c.CloseNow()
	waitGoroutines(t, base)
}

func TestWebSocketOrigins(t *testing.T) {
	dial := func(srv *httptest.Server, origin string) int {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/graphql",
			&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}, HTTPHeader: http.Header{"Origin": {origin}}})
		if err == nil {
			_ = c.CloseNow()
		}
		return resp.StatusCode
	}
	strict, _ := chatServer(t, graft.Config{})
	if got := dial(strict, "https://evil.example"); got != http.StatusForbidden {
		t.Errorf("cross-origin by default: %d, want 403", got)
	}
	if got := dial(strict, strict.URL); got != http.StatusSwitchingProtocols {
		t.Errorf("same origin: %d, want 101", got)
	}
	open, _ := chatServer(t, graft.Config{Subscriptions: graft.SubscriptionConfig{OriginPatterns: []string{"*.example"}}})
	if got := dial(open, "https://app.example"); got != http.StatusSwitchingProtocols {
		t.Errorf("listed origin: %d, want 101", got)
	}
}

func TestWebSocketSlowConsumerIsDisconnected(t *testing.T) {
	srv, _, ps := chatServerPS(t, graft.Config{Subscriptions: graft.SubscriptionConfig{WriteTimeout: 50 * time.Millisecond}})
	w := dialWS(t, srv)
	w.init()
	w.send(`{"id":"1","type":"subscribe","payload":{"query":"subscription { messageAdded(room: \"slow\") { text } }"}}`)
	waitSubscribers(t, ps, "chat:slow", 1)
	// The client reads nothing more; large events fill the socket buffers
	// until a write cannot finish within the write timeout.
	text := strings.Repeat("x", 256<<10)
	for i := 0; ps.Subscribers("chat:slow") > 0; i++ {
		if i == 400 {
			t.Fatal("the slow consumer was never disconnected")
		}
		resp := streamPost(t, srv, "", `{"query":"mutation { postMessage(room: \"slow\", author: \"a\", text: \"`+text+`\") { id } }"}`)
		_ = resp.Body.Close()
	}
	waitSubscribers(t, ps, "chat:slow", 0)
}

func TestServeShutdownCompletesSubscriptions(t *testing.T) {
	s, err := chat.Schema()
	if err != nil {
		t.Fatal(err)
	}
	router, err := graft.NewRouter(s, nil, graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	url, cancel, done := startServe(t, router, graft.ServeOptions{ShutdownGrace: time.Minute})
	ctx, stop := context.WithTimeout(context.Background(), 30*time.Second)
	defer stop()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(url, "http")+"/graphql",
		&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		t.Fatal(err)
	}
	w := &wsClient{t: t, c: c}
	defer c.CloseNow()
	w.init()
	w.send(`{"id":"1","type":"subscribe","payload":{"query":"subscription { countdown(from: 1000000) }"}}`)
	w.expect(`{"id":"1","type":"next","payload":{"data":{"countdown":1000000}}}`)
	sse := streamPost(t, &httptest.Server{URL: url}, "text/event-stream", `{"query":"subscription { messageAdded(room: \"s\") { id } }"}`)
	cancel()
	for {
		var m struct{ ID, Type string }
		_ = json.Unmarshal([]byte(w.read()), &m)
		if m.Type == "complete" {
			break
		}
	}
	w.expectClose(websocket.StatusGoingAway, "Server shutting down")
	body, _ := io.ReadAll(sse.Body)
	if !strings.HasSuffix(string(body), "event: complete\ndata: \n\n") {
		t.Errorf("SSE stream ended with %q, want a complete event", body)
	}
	// Serve returns well before the minute of grace.
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestTotalSubscriptionBound(t *testing.T) {
	srv, _, ps := chatServerPS(t, graft.Config{Subscriptions: graft.SubscriptionConfig{MaxSubscriptions: 1}})
	a := dialWS(t, srv)
	a.init()
	a.send(`{"id":"1","type":"subscribe","payload":{"query":"subscription { messageAdded(room: \"t\") { id } }"}}`)
	waitSubscribers(t, ps, "chat:t", 1)
	b := dialWS(t, srv)
	b.init()
	b.send(`{"id":"1","type":"subscribe","payload":{"query":"subscription { messageAdded(room: \"t\") { id } }"}}`)
	b.expect(`{"id":"1","type":"error","payload":[{"message":"Too many subscriptions: complete one first","extensions":{"code":"TOO_MANY_SUBSCRIPTIONS"}}]}`)
	resp := streamPost(t, srv, "text/event-stream", `{"query":"subscription { messageAdded(room: \"t\") { id } }"}`)
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("SSE over the bound: %d, want 503", resp.StatusCode)
	}
	// Completing the first frees its place.
	a.send(`{"id":"1","type":"complete"}`)
	waitSubscribers(t, ps, "chat:t", 0)
	for {
		b.send(`{"id":"2","type":"subscribe","payload":{"query":"subscription { countdown(from: 0) }"}}`)
		if m := b.read(); m == `{"id":"2","type":"next","payload":{"data":{"countdown":0}}}` {
			b.expect(`{"id":"2","type":"complete"}`)
			return
		}
		runtime.Gosched()
	}
}
