package graft_test

import (
	"bufio"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/graftgql/graft"
)

// wsRawFrame is a masked client text frame holding msg (shorter than 126
// bytes), with a zero mask so the payload is sent as is.
func wsRawFrame(msg string) []byte {
	return append([]byte{0x81, 0x80 | byte(len(msg)), 0, 0, 0, 0}, msg...)
}

// dialRawSubscriber opens a graphql-transport-ws connection on a bare
// TCP socket, initialises it and subscribes to messageAdded(room: "idle").
// It reads the upgrade response and the acknowledgement and holds no
// goroutine or buffer afterwards, so the memory a test measures is the
// server's.
func dialRawSubscriber(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	req := "GET /graphql HTTP/1.1\r\nHost: " + addr + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" +
		"Sec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n"
	out := append([]byte(req), wsRawFrame(`{"type":"connection_init"}`)...)
	out = append(out, wsRawFrame(`{"id":"1","type":"subscribe","payload":{"query":"subscription { messageAdded(room: \"idle\") { id } }"}}`)...)
	if _, err := c.Write(out); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReaderSize(c, 16)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("upgrade: %v %v", resp, err)
	}
	ack := `{"type":"connection_ack"}`
	want := append([]byte{0x81, byte(len(ack))}, ack...)
	got := make([]byte, len(want))
	for i := range got {
		if got[i], err = br.ReadByte(); err != nil {
			t.Fatal(err)
		}
	}
	if string(got) != string(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	return c
}

// TestWebSocketIdleSubscriberCost holds n WebSocket connections, each
// with one messageAdded subscription, idle, and measures what each costs
// the server: goroutines, and live heap plus goroutine stacks (the bare
// client sockets of the test are counted too). GRAFT_HEAP_PROFILE names a
// file to write the heap profile (and, beside it, the goroutine profile)
// to while the subscribers are idle.
func TestWebSocketIdleSubscriberCost(t *testing.T) {
	c := holdIdleSubscribers(t, dialRawSubscriber)
	n, g0, g1, perBytes, perStack := c.n, c.g0, c.g1, c.perBytes, c.perStack
	// On Linux an idle connection has no goroutine: the process's one
	// poller (internal/transport/poll) waits for its input, and the bound
	// is on the heap alone (the runtime's stack caches move the stacks'
	// figure by a few hundred bytes either way). Elsewhere its reader
	// waits, one goroutine per connection; none per subscription.
	wantGoroutines, wantBytes := n, 9.0*1024
	if runtime.GOOS == "linux" {
		wantGoroutines, wantBytes, perBytes = 0, 3.5*1024, c.perHeap
	}
	if g1-g0 != wantGoroutines {
		t.Errorf("%d goroutines for %d idle subscribers, want %d", g1-g0, n, wantGoroutines)
	}
	// The race detector's stacks and heap are larger. About 3.2 KiB on
	// Linux (the reader's goroutine, stack and pooled read buffer
	// elsewhere): the socket (0.6 KiB, counted twice: the test's end too),
	// the connection (0.2 KiB, no buffer: it reads and writes frames
	// itself), the upgrade request's context kept for its values (0.4
	// KiB), the subscription's contexts, request state, stream, queue and
	// pubsub entry (about 2 KiB; 2.5 KiB with a registration with the
	// subscription's context for the pubsub apart from the queue's, and a
	// request state with room for an execution deadline) and the poller's
	// registration. With coder/websocket's state per connection it was
	// about 6 KiB.
	if !raceEnabled && perBytes > wantBytes {
		t.Errorf("%.0f bytes per idle subscriber, want at most %.0f", perBytes, wantBytes)
	}
	// An idle reader waits on a small stack; on Linux it has none (the
	// runtime's stack caches move the figure by a few hundred bytes).
	wantStack := int64(3 << 10)
	if runtime.GOOS == "linux" {
		wantStack = 1 << 10
	}
	if !raceEnabled && perStack > wantStack {
		t.Errorf("%d bytes of stack per idle subscriber, want at most %d", perStack, wantStack)
	}
	c.close()
	// Every goroutine of the connections is gone once they leave (on
	// Linux the poller's too, once no socket is registered).
	waitGoroutines(t, g0-1)
}

// dialRawSSE subscribes to messageAdded(room: "idle") in graphql-sse's
// distinct connections mode on a bare TCP socket and reads the stream's
// head and opening comment; it holds no goroutine or buffer afterwards.
func dialRawSSE(t *testing.T, addr string) net.Conn {
	t.Helper()
	return openRawSSE(t, addr, "idle", "{ id }")
}

// TestSSEIdleSubscriberCost holds n event streams (graphql-sse, distinct
// connections), each one messageAdded subscription, idle, and measures
// what each costs the server, as TestWebSocketIdleSubscriberCost does
// (GRAFT_HEAP_PROFILE too).
func TestSSEIdleSubscriberCost(t *testing.T) {
	c := holdIdleSubscribers(t, dialRawSSE)
	n, g0, g1 := c.n, c.g0, c.g1
	// On Linux a stream is taken over from net/http once it streams and
	// has no goroutine while idle; elsewhere net/http's connection
	// goroutine serves it, and a second one sends its heartbeats.
	if runtime.GOOS == "linux" {
		if g1 != g0 {
			t.Errorf("%d goroutines for %d idle subscribers, want 0", g1-g0, n)
		}
		// About 3.2 KiB of heap (3.6 KiB before the pubsub learnt of the
		// end through the queue's registration with the context and the
		// operation's state lost its room for an execution deadline):
		// the socket, the stream, the request's context and headers kept
		// for the hooks, the subscription's contexts, request state,
		// stream, queue and pubsub entry.
		if !raceEnabled && c.perHeap > 3.5*1024 {
			t.Errorf("%.0f bytes of heap per idle subscriber, want at most 3.5 KiB", c.perHeap)
		}
	}
	c.close()
	waitGoroutines(t, g0)
}

// idleCost is what holdIdleSubscribers measured: n subscribers, the
// goroutines before and after (g0, g1), and per subscriber the bytes of
// live heap and stacks and of stacks alone.
type idleCost struct {
	n, g0, g1 int
	perBytes  float64
	perHeap   float64 // perBytes without the stacks
	perStack  int64
	close     func() // closes the subscribers and waits until they are gone
}

// holdIdleSubscribers serves the chat example, opens one subscriber with
// dial to warm the caches (document cache, pools), then n more, each
// subscribed to messageAdded(room: "idle") and left idle, and measures
// what they cost the server (the bare client sockets of the test are
// counted too). GRAFT_HEAP_PROFILE names a file to write the heap profile
// (and, beside it, the goroutine profile) to while they are idle.
func holdIdleSubscribers(t *testing.T, dial func(*testing.T, string) net.Conn) idleCost {
	t.Helper()
	if testing.Short() {
		t.Skip("holds hundreds of connections")
	}
	n := 500
	if os.Getenv("GRAFT_HEAP_PROFILE") != "" {
		runtime.MemProfileRate = 1
	}
	if raceEnabled {
		n = 100
	}
	srv, _, ps := chatServerPS(t, graft.Config{})
	addr := strings.TrimPrefix(srv.URL, "http://")
	measure := func() (goroutines int, mem, stacks uint64) {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return settledGoroutines(), m.HeapAlloc + m.StackInuse, m.StackInuse
	}
	first := dial(t, addr)
	waitSubscribers(t, ps, "chat:idle", 1)
	g0, m0, s0 := measure()
	conns := make([]net.Conn, n)
	for i := range conns {
		conns[i] = dial(t, addr)
	}
	waitSubscribers(t, ps, "chat:idle", n+1)
	g1, m1, s1 := measure()
	if p := os.Getenv("GRAFT_HEAP_PROFILE"); p != "" {
		if f, err := os.Create(p); err == nil {
			_ = pprof.WriteHeapProfile(f)
			_ = f.Close()
		}
		if f, err := os.Create(p + ".goroutines"); err == nil {
			_ = pprof.Lookup("goroutine").WriteTo(f, 1)
			_ = f.Close()
		}
	}
	c := idleCost{n: n, g0: g0, g1: g1,
		perBytes: float64(int64(m1)-int64(m0)) / float64(n),
		perHeap:  float64((int64(m1)-int64(s1))-(int64(m0)-int64(s0))) / float64(n),
		perStack: (int64(s1) - int64(s0)) / int64(n),
		close: func() {
			for _, c := range append(conns, first) {
				_ = c.Close()
			}
			waitSubscribers(t, ps, "chat:idle", 0)
		}}
	t.Logf("per idle subscriber: %.2f goroutines, %.0f bytes of heap and stacks (%d of stacks, %.0f of heap)", float64(g1-g0)/float64(n), c.perBytes, c.perStack, c.perHeap)
	return c
}

// settledGoroutines counts the goroutines that stay: the fewest seen over
// a few scheduler rounds, so that a connection's reader handing its wait
// to a fresh goroutine, or a goroutine just ending, is not counted.
func settledGoroutines() int {
	n := runtime.NumGoroutine()
	for range 20 {
		runtime.Gosched()
		time.Sleep(time.Millisecond)
		n = min(n, runtime.NumGoroutine())
	}
	return n
}
