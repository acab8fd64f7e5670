package graft_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/pubsub"
)

// dialRawSSERoom subscribes to messageAdded(room:) { id text } in
// graphql-sse's distinct connections mode on a bare TCP socket and reads
// the stream's head and opening comment; the socket is closed when the
// test ends.
func dialRawSSERoom(t *testing.T, addr, room string) net.Conn {
	t.Helper()
	c := openRawSSE(t, addr, room, "{ id text }")
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// openRawSSE subscribes to messageAdded(room:) with selection in
// graphql-sse's distinct connections mode on a bare TCP socket and reads
// the stream's head and opening comment, nothing past it; the socket
// holds no goroutine or buffer of the client's afterwards.
func openRawSSE(t *testing.T, addr, room, selection string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	body := `{"query":"subscription { messageAdded(room: \"` + room + `\") ` + selection + ` }"}`
	req := "POST /graphql HTTP/1.1\r\nHost: " + addr + "\r\nAccept: text/event-stream\r\nContent-Type: application/json\r\n" +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
	if _, err := c.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReaderSize(c, 16)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("stream: %v %v", resp, err)
	}
	if open := readUntil(t, br, ":\n\n\r\n"); !strings.HasSuffix(open, "\r\n:\n\n\r\n") {
		t.Fatalf("opening chunk %q", open)
	}
	if br.Buffered() != 0 {
		t.Fatalf("%d bytes past the opening chunk", br.Buffered())
	}
	return c
}

// TestFanOutDeliveryAllocations publishes a message to n event streams
// (graphql-sse, distinct connections, taken over from net/http) and
// counts the allocations of the whole delivery, from the publish to the
// last byte every client reads: none per subscriber. The event is queued
// as one value for every subscriber, its answer framed once for the
// stream format and shared, and each stream writes that frame with one
// send(2) from one of the hub's workers, with no goroutine, buffer or
// deadline of its own. The bytes each client reads are the frame: one
// chunk holding one event.
func TestFanOutDeliveryAllocations(t *testing.T) {
	t.Run("no hooks", func(t *testing.T) { fanOutDeliveryAllocations(t, graft.Config{}) })
	// A hook that observes requests but not their payloads changes
	// nothing.
	t.Run("a hook observing answers only", func(t *testing.T) {
		fanOutDeliveryAllocations(t, graft.Config{Hooks: []graft.Hook{&answeredOnly{}}})
	})
}

func fanOutDeliveryAllocations(t *testing.T, cfg graft.Config) {
	if testing.Short() {
		t.Skip("holds hundreds of connections")
	}
	if runtime.GOOS != "linux" {
		t.Skip("streams are taken over from net/http on Linux only")
	}
	const n = 200
	srv, _, ps := chatServerPS(t, cfg)
	addr := strings.TrimPrefix(srv.URL, "http://")
	conns := make([]net.Conn, n)
	for i := range conns {
		conns[i] = dialRawSSERoom(t, addr, "alloc")
	}
	waitSubscribers(t, ps, "chat:alloc", n)

	// The first event, read whole by the first client: exactly one
	// chunk carrying one event.
	payload := []byte(`{"id":"m1","room":"alloc","author":"a","text":"hi","createdAt":"2026-01-01T00:00:00Z"}`)
	if err := ps.Publish(context.Background(), "chat:alloc", payload); err != nil {
		t.Fatal(err)
	}
	event := "event: next\ndata: " + `{"data":{"messageAdded":{"id":"m1","text":"hi"}}}` + "\n\n"
	frame := strconv.FormatInt(int64(len(event)), 16) + "\r\n" + event + "\r\n"
	for _, c := range conns {
		got := make([]byte, len(frame))
		if _, err := readFull(c, got); err != nil || string(got) != frame {
			t.Fatalf("read %q (%v), want %q", got, err, frame)
		}
	}

	readers := make([]io.Reader, n)
	for i, c := range conns {
		readers[i] = c
	}
	publish, read := publishAndRead(t, ps, "chat:alloc", payload, readers, len(frame))
	publish() // warm the pools
	allocs := testing.AllocsPerRun(20, publish)
	t.Logf("%.1f allocations per event delivered to %d subscribers", allocs, n)
	// The few left are the workers' and the runtime's, not the
	// subscribers': before, every subscriber cost at least four (the
	// event, its queue, its answer's buffer and the write's chunks). The
	// race detector allocates on its own: the count is checked in builds
	// without it (.ci/run runs this test so too).
	if !raceEnabled && allocs > n/20 {
		t.Errorf("%.1f allocations per event for %d subscribers, want at most %d", allocs, n, n/20)
	}
	if got, want := read(); got != want {
		t.Errorf("the clients read %d bytes, want %d (%d events of %d bytes each)", got, want, want/int64(len(frame)), len(frame))
	}
}

// publishAndRead starts a reader of each of clients, every one reading
// into a buffer of its own and counting the bytes, and returns publish,
// which publishes payload on topic and returns once the clients have read
// frameLen bytes each for it, and read, which returns the bytes the
// clients have read and the bytes publish waited for.
func publishAndRead(t *testing.T, ps pubsub.PubSub, topic string, payload []byte, clients []io.Reader, frameLen int) (publish func(), read func() (got, want int64)) {
	var total, target atomic.Int64
	reached := make(chan struct{}, 1)
	for _, c := range clients {
		go func() {
			var buf [512]byte
			for {
				k, err := c.Read(buf[:])
				if got := total.Add(int64(k)); got >= target.Load() {
					select {
					case reached <- struct{}{}:
					default:
					}
				}
				if err != nil {
					return
				}
			}
		}()
	}
	publish = func() {
		want := target.Add(int64(len(clients) * frameLen))
		if err := ps.Publish(context.Background(), topic, payload); err != nil {
			t.Fatal(err)
		}
		for total.Load() < want {
			<-reached
		}
	}
	return publish, func() (int64, int64) { return total.Load(), target.Load() }
}

// readFull reads len(b) bytes from c.
func readFull(c net.Conn, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		k, err := c.Read(b[n:])
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// TestSSESingleConnectionOperationsHoldNoGoroutine: the subscriptions of
// a single-connection event stream whose source pushes its events hold
// no goroutine while idle (their events are queued for the stream from
// the hub's workers); each still delivers its events, tagged with its
// id, and its complete once it ends.
func TestSSESingleConnectionOperationsHoldNoGoroutine(t *testing.T) {
	srv, _, ps := chatServerPS(t, graft.Config{})
	body, tok := openSingleConnectionStream(t, srv)
	defer body.Close()
	br := bufio.NewReader(body)
	readUntil(t, br, ":\n\n")
	g0 := settledGoroutines()
	const n = 20
	for i := range n {
		op := streamPost(t, srv, "", `{"query":"subscription { messageAdded(room: \"single\") { text } }","extensions":{"operationId":"op`+strconv.Itoa(i)+`"}}`,
			"X-GraphQL-Event-Stream-Token", tok)
		if op.StatusCode != http.StatusAccepted {
			t.Fatalf("operation: %d", op.StatusCode)
		}
	}
	waitSubscribers(t, ps, "chat:single", n)
	http.DefaultClient.CloseIdleConnections()
	if g1 := settledGoroutines(); g1 > g0 {
		t.Errorf("%d goroutines for %d idle subscriptions of one stream, want none", g1-g0, n)
	}
	if err := ps.Publish(context.Background(), "chat:single", []byte(`{"id":"1","text":"hi"}`)); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for range n {
		ev := readUntil(t, br, "\n\n")
		for i := range n {
			id := "op" + strconv.Itoa(i)
			if ev == "event: next\ndata: {\"id\":\""+id+"\",\"payload\":{\"data\":{\"messageAdded\":{\"text\":\"hi\"}}}}\n\n" {
				seen[id] = true
			}
		}
	}
	if len(seen) != n {
		t.Errorf("%d of %d subscriptions delivered the event", len(seen), n)
	}
	// DELETE completes one: its subscription ends and leaves the pubsub.
	del, _ := http.NewRequest(http.MethodDelete, srv.URL+"/graphql?operationId=op0", nil)
	del.Header.Set("X-GraphQL-Event-Stream-Token", tok)
	if resp, err := http.DefaultClient.Do(del); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("DELETE: %v %v", resp, err)
	}
	waitSubscribers(t, ps, "chat:single", n-1)
}

// phaseCounter counts the payloads it observes; phases, when set, are
// the phases it names (graft.HookPhases).
type phaseCounter struct {
	payloads atomic.Int64
}

func (h *phaseCounter) Before(context.Context, *graft.HookEvent) (context.Context, error) {
	return nil, nil
}

func (h *phaseCounter) After(_ context.Context, ev *graft.HookEvent) {
	if ev.Phase == graft.PhasePayload {
		h.payloads.Add(1)
	}
}

// answeredOnly observes PhaseAnswered alone, as the access log does.
type answeredOnly struct{ phaseCounter }

func (*answeredOnly) Phases() []graft.Phase { return []graft.Phase{graft.PhaseAnswered} }

// TestFanOutSharesUnlessHooksObservePayloads: an event posted to n
// subscribers of one selection is executed once; with a hook observing
// PhasePayload every subscriber's payload passes the hook on its own,
// and with one that observes requests but not their payloads (as the
// access log and metrics do) none does (their delivery is as without
// hooks: TestFanOutDeliveryAllocations).
func TestFanOutSharesUnlessHooksObservePayloads(t *testing.T) {
	const n = 6
	for _, c := range []struct {
		name      string
		hook      interface{ count() int64 }
		encodings int64
		payloads  int64
	}{
		{"a hook observing answers only", &answeredOnly{}, 1, 0},
		{"a hook observing payloads", &phaseCounter{}, 1, n},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv, r, ps := chatServerPS(t, graft.Config{Hooks: []graft.Hook{c.hook.(graft.Hook)}})
			var nexts []func() string
			for range n {
				nexts = append(nexts, fanOutTransports[1].open(t, srv, `subscription { messageAdded(room: \"hooked\") { text } }`))
			}
			waitSubscribers(t, ps, "chat:hooked", n)
			before := graft.SubscriptionEventsEncoded(r)
			if err := ps.Publish(context.Background(), "chat:hooked", []byte(`{"id":"1","text":"hi"}`)); err != nil {
				t.Fatal(err)
			}
			for _, next := range nexts {
				if got := next(); got != "event: next\ndata: {\"data\":{\"messageAdded\":{\"text\":\"hi\"}}}\n\n" {
					t.Fatalf("event %q", got)
				}
			}
			if got := graft.SubscriptionEventsEncoded(r) - before; got != c.encodings {
				t.Errorf("%d executions of the event for %d subscribers, want %d", got, n, c.encodings)
			}
			if got := c.hook.count(); got != c.payloads {
				t.Errorf("the hook observed %d payloads, want %d", got, c.payloads)
			}
		})
	}
}

func (h *phaseCounter) count() int64 { return h.payloads.Load() }
