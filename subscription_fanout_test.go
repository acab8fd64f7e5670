package graft_test

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/graftgql/graft"
)

// fanOutTransports opens a subscriber of query over each streaming
// transport and returns, per transport, a function that reads the
// subscriber's next event.
var fanOutTransports = []struct {
	name string
	open func(t *testing.T, srv *httptest.Server, query string) (next func() string)
}{
	{"websocket", func(t *testing.T, srv *httptest.Server, query string) func() string {
		w := dialWS(t, srv)
		w.c.SetReadLimit(1 << 20) // events up to 1 MiB
		w.init()
		w.send(`{"id":"1","type":"subscribe","payload":{"query":"` + query + `"}}`)
		return w.read
	}},
	{"sse distinct connections", func(t *testing.T, srv *httptest.Server, query string) func() string {
		resp := streamPost(t, srv, "text/event-stream", `{"query":"`+query+`"}`)
		br := bufio.NewReader(resp.Body)
		readUntil(t, br, ":\n\n")
		return func() string { return readUntil(t, br, "\n\n") }
	}},
	{"multipart", func(t *testing.T, srv *httptest.Server, query string) func() string {
		resp := streamPost(t, srv, `multipart/mixed;subscriptionSpec="1.0"`, `{"query":"`+query+`"}`)
		br := bufio.NewReader(resp.Body)
		readUntil(t, br, "\r\n--graphql")
		return func() string { return readUntil(t, br, "\r\n--graphql") }
	}},
	{"sse single connection", func(t *testing.T, srv *httptest.Server, query string) func() string {
		body, tok := openSingleConnectionStream(t, srv)
		t.Cleanup(func() { body.Close() })
		br := bufio.NewReader(body)
		readUntil(t, br, ":\n\n")
		op := streamPost(t, srv, "", `{"query":"`+query+`","extensions":{"operationId":"op"}}`, "X-GraphQL-Event-Stream-Token", tok)
		if op.StatusCode != http.StatusAccepted {
			t.Fatalf("operation: %d", op.StatusCode)
		}
		return func() string { return readUntil(t, br, "\n\n") }
	}},
}

// TestFanOutEncodesOncePerSelection: a message posted to a room whose
// subscribers run two distinct selections, several over each streaming
// transport, reaches every subscriber with its selection's answer and is
// executed into an answer twice, once per selection, not once per
// subscriber.
func TestFanOutEncodesOncePerSelection(t *testing.T) {
	srv, r, ps := chatServerPS(t, graft.Config{})
	selections := []struct{ query, want string }{
		{`subscription { messageAdded(room: \"fan\") { text author } }`, `{"data":{"messageAdded":{"text":"hello","author":"a"}}}`},
		{`subscription { messageAdded(room: \"fan\") { text } }`, `{"data":{"messageAdded":{"text":"hello"}}}`},
	}
	const perTransport = 3
	type subscriber struct {
		transport string
		want      string
		next      func() string
	}
	var subs []subscriber
	for _, tr := range fanOutTransports {
		for _, sel := range selections {
			for range perTransport {
				subs = append(subs, subscriber{tr.name, sel.want, tr.open(t, srv, sel.query)})
				// One at a time: two first requests of a document
				// planned at once would each make an operation of their
				// own (the document cache keeps one of them), each
				// sharing its answers with its own subscribers.
				waitSubscribers(t, ps, "chat:fan", len(subs))
			}
		}
	}
	waitSubscribers(t, ps, "chat:fan", len(subs))
	before := graft.SubscriptionEventsEncoded(r)
	m := streamPost(t, srv, "", `{"query":"mutation { postMessage(room: \"fan\", author: \"a\", text: \"hello\") { id } }"}`)
	if m.StatusCode != http.StatusOK {
		t.Fatalf("mutation: %d", m.StatusCode)
	}
	for _, s := range subs {
		if got := s.next(); !strings.Contains(got, s.want) {
			t.Errorf("%s: got %q, want the payload %s", s.transport, got, s.want)
		}
	}
	if n := graft.SubscriptionEventsEncoded(r) - before; n != int64(len(selections)) {
		t.Errorf("the event was executed %d times for %d subscribers of %d selections, want %d",
			n, len(subs), len(selections), len(selections))
	}
}

// TestFanOutSlowSubscriberIsDropped: over every streaming transport, a
// subscriber that stops reading is disconnected once its events back up
// (a write that cannot finish within SubscriptionConfig.WriteTimeout, or
// more events waiting than its stream holds), and another subscriber of
// the same room, reading, receives every event in order meanwhile and
// after. With a write timeout of an hour, the first three transports keep
// the slow subscriber (its events are bounded, not its time) and the test
// fails on them.
func TestFanOutSlowSubscriberIsDropped(t *testing.T) {
	const query = `subscription { messageAdded(room: \"slow\") { text } }`
	post := func(t *testing.T, srv *httptest.Server, text string) {
		resp := streamPost(t, srv, "", `{"query":"mutation { postMessage(room: \"slow\", author: \"a\", text: \"`+text+`\") { id } }"}`)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("mutation: %d", resp.StatusCode)
		}
		_ = resp.Body.Close()
	}
	for _, tr := range fanOutTransports {
		t.Run(tr.name, func(t *testing.T) {
			srv, _, ps := chatServerPS(t, graft.Config{Subscriptions: graft.SubscriptionConfig{WriteTimeout: 50 * time.Millisecond}})
			tr.open(t, srv, query) // never read
			waitSubscribers(t, ps, "chat:slow", 1)
			reading := tr.open(t, srv, query)
			waitSubscribers(t, ps, "chat:slow", 2)
			// Large events fill the socket buffers of the subscriber
			// that does not read; the other reads each one.
			big := strings.Repeat("x", 256<<10)
			for i := 0; ps.Subscribers("chat:slow") > 1; i++ {
				if i == 400 {
					t.Fatal("the subscriber that stopped reading was never disconnected")
				}
				mark := fmt.Sprintf("event %03d ", i)
				post(t, srv, mark+big)
				if got := reading(); !strings.Contains(got, `"text":"`+mark) {
					t.Fatalf("%s: the reading subscriber got %.80q", mark, got)
				}
			}
			post(t, srv, "after")
			if got := reading(); !strings.Contains(got, `"text":"after"`) {
				t.Fatalf("after the slow subscriber left, the reading one got %.80q", got)
			}
			waitSubscribers(t, ps, "chat:slow", 1)
		})
	}
}
