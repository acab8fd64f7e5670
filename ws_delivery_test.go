package graft_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/graftgql/graft"
)

// dialRawWSRoom opens a graphql-transport-ws connection on a bare TCP
// socket, initialises it and subscribes, as operation "1", to
// messageAdded(room:) { id text }.
func dialRawWSRoom(t *testing.T, addr, room string) *rawWS {
	t.Helper()
	w := dialRawWS(t, addr)
	w.write(wsRawFrame(`{"type":"connection_init"}`), 64)
	w.expect(0x1, `{"type":"connection_ack"}`)
	w.write(wsRawFrame(`{"id":"1","type":"subscribe","payload":{"query":"subscription { messageAdded(room: \"`+room+`\") { id text } }"}}`), 256)
	return w
}

// goroutinesCreated is the count of goroutines the process has started.
func goroutinesCreated() uint64 {
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// TestWebSocketFanOutDeliveryAllocations publishes a message to n
// graphql-transport-ws subscribers (bare sockets, every subscription
// with id "1") and counts the allocations and the goroutines started by
// the whole delivery, from the publish to the last byte every client
// reads: none per subscriber. The event's next frame is built once and
// shared, and each connection writes it with one send(2) from one of
// the hub's workers, with no goroutine or deadline of its own. The bytes
// each client reads are that frame.
func TestWebSocketFanOutDeliveryAllocations(t *testing.T) {
	if testing.Short() {
		t.Skip("holds hundreds of connections")
	}
	if runtime.GOOS != "linux" {
		t.Skip("connections are written without waiting on Linux only")
	}
	const n = 200
	srv, _, ps := chatServerPS(t, graft.Config{})
	addr := strings.TrimPrefix(srv.URL, "http://")
	conns := make([]*rawWS, n)
	for i := range conns {
		conns[i] = dialRawWSRoom(t, addr, "wsalloc")
	}
	waitSubscribers(t, ps, "chat:wsalloc", n)

	payload := []byte(`{"id":"m1","room":"wsalloc","author":"a","text":"hi","createdAt":"2026-01-01T00:00:00Z"}`)
	if err := ps.Publish(context.Background(), "chat:wsalloc", payload); err != nil {
		t.Fatal(err)
	}
	msg := `{"id":"1","type":"next","payload":{"data":{"messageAdded":{"id":"m1","text":"hi"}}}}`
	frame := string(append([]byte{0x81, byte(len(msg))}, msg...))
	for _, w := range conns {
		w.expect(0x1, msg)
		if w.br.Buffered() != 0 {
			t.Fatalf("%d bytes past the frame", w.br.Buffered())
		}
		_ = w.c.SetDeadline(time.Time{})
	}

	readers := make([]io.Reader, n)
	for i, w := range conns {
		readers[i] = w.br
	}
	publish, read := publishAndRead(t, ps, "chat:wsalloc", payload, readers, len(frame))
	publish() // warm the pools
	g0 := goroutinesCreated()
	allocs := testing.AllocsPerRun(20, publish)
	started := float64(goroutinesCreated()-g0) / 21
	t.Logf("%.1f allocations and %.1f goroutines started per event delivered to %d subscribers", allocs, started, n)
	// The race detector allocates on its own: the count is checked in
	// builds without it (.ci/run runs this test so too).
	if !raceEnabled && allocs > n/20 {
		t.Errorf("%.1f allocations per event for %d subscribers, want at most %d", allocs, n, n/20)
	}
	// The workers' only: before, every connection started one.
	if started > n/20 {
		t.Errorf("%.1f goroutines started per event for %d subscribers, want at most %d", started, n, n/20)
	}
	if got, want := read(); got != want {
		t.Errorf("the clients read %d bytes, want %d", got, want)
	}
}

// readWSFrame reads one server frame of any length (unmasked).
func (w *rawWS) readFrame() (opcode byte, payload []byte) {
	w.t.Helper()
	var h [10]byte
	if _, err := io.ReadFull(w.br, h[:2]); err != nil {
		w.t.Fatal(err)
	}
	n := uint64(h[1] & 0x7f)
	switch n {
	case 126:
		if _, err := io.ReadFull(w.br, h[2:4]); err != nil {
			w.t.Fatal(err)
		}
		n = uint64(binary.BigEndian.Uint16(h[2:4]))
	case 127:
		if _, err := io.ReadFull(w.br, h[2:10]); err != nil {
			w.t.Fatal(err)
		}
		n = binary.BigEndian.Uint64(h[2:10])
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(w.br, p); err != nil {
		w.t.Fatal(err)
	}
	return h[0] & 0x0f, p
}

// TestWebSocketSlowClientHoldsNoWorker: with one worker delivering, a
// client that stops reading while large events keep coming never holds
// it: its connection's delivery goes on on a goroutine of its own, whose
// write waits (within the write timeout, a minute here), while the
// worker delivers every event to another subscriber. Once the slow client
// reads, the frames it gets are whole, in order: the part of a frame the
// socket did not take was written before anything else.
func TestWebSocketSlowClientHoldsNoWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("fills a socket's buffers")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	srv, _, ps := chatServerPS(t, graft.Config{Subscriptions: graft.SubscriptionConfig{WriteTimeout: time.Minute, KeepAlive: -1}})
	addr := strings.TrimPrefix(srv.URL, "http://")
	slow := dialRawWSRoom(t, addr, "slow")
	fast := dialRawWSRoom(t, addr, "slow")
	waitSubscribers(t, ps, "chat:slow", 2)

	// Far more than the sockets' buffers hold.
	const events = 200
	text := strings.Repeat("x", 60000)
	for i := range events {
		msg, _ := json.Marshal(map[string]string{"id": strconv.Itoa(i), "room": "slow", "author": "a", "text": text, "createdAt": "2026-01-01T00:00:00Z"})
		if err := ps.Publish(context.Background(), "chat:slow", msg); err != nil {
			t.Fatal(err)
		}
		// The fast client reads each event as it comes (its read
		// deadline catches a worker held by the slow client).
		op, p := fast.readFrame()
		want := `{"id":"1","type":"next","payload":{"data":{"messageAdded":{"id":"` + strconv.Itoa(i) + `","text":"` + text + `"}}}}`
		if op != 0x1 || string(p) != want {
			t.Fatalf("event %d: the fast client got %#x %.80q, want %.80q", i, op, p, want)
		}
	}
	// The slow client reads: whole next frames of its subscription, in
	// order (the events its subscription could not hold may be missing).
	last := -1
	for last < events-1 {
		op, p := slow.readFrame()
		var m struct {
			ID      string `json:"id"`
			Type    string `json:"type"`
			Payload struct {
				Data struct {
					MessageAdded struct{ ID, Text string }
				}
			}
		}
		if op != 0x1 || json.Unmarshal(p, &m) != nil || m.ID != "1" {
			t.Fatalf("after event %d the slow client got %#x %.80q", last, op, p)
		}
		if m.Type != "next" {
			break // its subscription ended, its queue overrun
		}
		i, _ := strconv.Atoi(m.Payload.Data.MessageAdded.ID)
		if i <= last || m.Payload.Data.MessageAdded.Text != text {
			t.Fatalf("after event %d the slow client got event %d", last, i)
		}
		last = i
	}
	t.Logf("the slow client read up to event %d of %d", last, events-1)
}

// TestWebSocketEventsPastAWriteDeadline: a write that waits (the
// acknowledgement) leaves a write deadline on the socket; an event
// written from a worker after that deadline passed still goes out (the
// worker's write, which does not wait, has no deadline).
func TestWebSocketEventsPastAWriteDeadline(t *testing.T) {
	srv, _, ps := chatServerPS(t, graft.Config{Subscriptions: graft.SubscriptionConfig{WriteTimeout: time.Millisecond, KeepAlive: -1}})
	w := dialRawWSRoom(t, strings.TrimPrefix(srv.URL, "http://"), "deadline")
	waitSubscribers(t, ps, "chat:deadline", 1)
	// Time passes beyond the acknowledgement's write deadline.
	time.Sleep(10 * time.Millisecond)
	for i := range 3 {
		id := strconv.Itoa(i)
		if err := ps.Publish(context.Background(), "chat:deadline", []byte(`{"id":"`+id+`","room":"deadline","author":"a","text":"hi","createdAt":"2026-01-01T00:00:00Z"}`)); err != nil {
			t.Fatal(err)
		}
		w.expect(0x1, `{"id":"1","type":"next","payload":{"data":{"messageAdded":{"id":"`+id+`","text":"hi"}}}}`)
	}
}
