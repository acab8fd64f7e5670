package fasthttpadapter_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/chat"
	"github.com/graftgql/graft/pubsub"
)

// chatClient serves the chat example with Handler in memory.
func chatClient(t *testing.T) (*http.Client, *pubsub.Memory) {
	t.Helper()
	ps := pubsub.NewMemory(pubsub.Options{})
	s, err := chat.New(ps).Schema()
	if err != nil {
		t.Fatal(err)
	}
	// fasthttp tells a handler nothing of a client that left: the stream
	// notices at its next write, event or keep-alive.
	r, err := graft.NewRouter(s, nil, graft.Config{Subscriptions: graft.SubscriptionConfig{KeepAlive: 20 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	return inMemoryClient(t, r), ps
}

func post(t *testing.T, c *http.Client, accept, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, "http://graft.test/graphql", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = resp.Body.Close() })
	return resp
}

func readUntil(t *testing.T, br *bufio.Reader, suffix string) string {
	t.Helper()
	var b strings.Builder
	for !strings.HasSuffix(b.String(), suffix) {
		c, err := br.ReadByte()
		if err != nil {
			t.Fatalf("reading %q: %v (got %q)", suffix, err, b.String())
		}
		b.WriteByte(c)
	}
	return b.String()
}

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

func TestSSEOverFasthttp(t *testing.T) {
	c, ps := chatClient(t)
	resp := post(t, c, "text/event-stream", `{"query":"subscription { countdown(from: 2) }"}`)
	body, _ := io.ReadAll(resp.Body)
	// Keep-alive comments may come between the events.
	if rest, ok := strings.CutPrefix(string(body), ":\n\n"); ok {
		body = []byte(":\n\n" + strings.ReplaceAll(rest, ":\n\n", ""))
	}
	want := ":\n\n" +
		"event: next\ndata: {\"data\":{\"countdown\":2}}\n\n" +
		"event: next\ndata: {\"data\":{\"countdown\":1}}\n\n" +
		"event: next\ndata: {\"data\":{\"countdown\":0}}\n\n" +
		"event: complete\ndata: \n\n"
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream; charset=utf-8" || string(body) != want {
		t.Fatalf("%d %s\n%q\nwant %q", resp.StatusCode, resp.Header.Get("Content-Type"), body, want)
	}

	// Each event is flushed as it happens, while the stream stays open.
	live := post(t, c, "text/event-stream", `{"query":"subscription { messageAdded(room: \"f\") { text } }"}`)
	br := bufio.NewReader(live.Body)
	readUntil(t, br, ":\n\n")
	waitSubscribers(t, ps, "chat:f", 1)
	post(t, c, "", `{"query":"mutation { postMessage(room: \"f\", author: \"a\", text: \"hi\") { id } }"}`)
	readUntil(t, br, "event: next\ndata: {\"data\":{\"messageAdded\":{\"text\":\"hi\"}}}\n\n")
	_ = live.Body.Close()
	waitSubscribers(t, ps, "chat:f", 0)
}

func TestSSEOverFasthttpRequestErrorIsAnEvent(t *testing.T) {
	c, _ := chatClient(t)
	resp := post(t, c, "text/event-stream", `{"query":"subscription { nope }"}`)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"code":"GRAPHQL_VALIDATION_FAILED"`) ||
		!strings.HasSuffix(string(body), "event: complete\ndata: \n\n") {
		t.Fatalf("%d %q", resp.StatusCode, body)
	}
}

func TestMultipartOverFasthttp(t *testing.T) {
	c, _ := chatClient(t)
	resp := post(t, c, `multipart/mixed;subscriptionSpec="1.0",application/json`, `{"query":"subscription { countdown(from: 1) }"}`)
	body, _ := io.ReadAll(resp.Body)
	part := "\r\ncontent-type: application/json; charset=utf-8\r\n\r\n"
	// A heartbeat may fall between the events on a loaded machine.
	body = bytes.ReplaceAll(body, []byte(part+"{}\r\n--graphql"), nil)
	want := "\r\n--graphql" +
		part + `{"payload":{"data":{"countdown":1}}}` + "\r\n--graphql" +
		part + `{"payload":{"data":{"countdown":0}}}` + "\r\n--graphql" + "--\r\n"
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != `multipart/mixed;boundary="graphql";subscriptionSpec="1.0"` || string(body) != want {
		t.Fatalf("%d %s\n%q\nwant %q", resp.StatusCode, resp.Header.Get("Content-Type"), body, want)
	}
	// Errors before the stream are an ordinary GraphQL response.
	bad := post(t, c, `multipart/mixed;subscriptionSpec=1.0`, `{"query":"subscription { nope }"}`)
	if bad.StatusCode != 400 || !strings.HasPrefix(bad.Header.Get("Content-Type"), "application/graphql-response+json") {
		t.Fatalf("validation error: %d %s", bad.StatusCode, bad.Header.Get("Content-Type"))
	}
}

func TestWebSocketOverFasthttpIsRefused(t *testing.T) {
	c, _ := chatClient(t)
	req, _ := http.NewRequest(http.MethodGet, "http://graft.test/graphql", nil)
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", "websocket")
	req.Header.Set("Sec-WebSocket-Version", "13")
	req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Errors []struct{ Extensions struct{ Code string } }
	}
	_ = json.NewDecoder(resp.Body).Decode(&body)
	if resp.StatusCode != 400 || len(body.Errors) != 1 || body.Errors[0].Extensions.Code != "OPERATION_NOT_SUPPORTED" {
		t.Fatalf("%d %+v", resp.StatusCode, body)
	}
}
