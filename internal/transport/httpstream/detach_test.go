package httpstream

import (
	"bytes"
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/graftgql/graft/internal/httpapi"
	"github.com/graftgql/graft/internal/transport"
)

// fakeConn is a Detached connection: TryWrite takes up to room bytes
// (all when room is negative), WriteRaw waits for release.
type fakeConn struct {
	mu      sync.Mutex
	wire    bytes.Buffer
	room    int
	tries   int
	release chan struct{}
	raw     chan struct{} // a WriteRaw began
	wrote   chan struct{} // bytes were written
}

func newFakeConn(room int) *fakeConn {
	return &fakeConn{room: room, release: make(chan struct{}), raw: make(chan struct{}, 8), wrote: make(chan struct{}, 64)}
}

func (c *fakeConn) put(b []byte) {
	c.mu.Lock()
	c.wire.Write(b)
	c.mu.Unlock()
	c.wrote <- struct{}{}
}

func (c *fakeConn) Write(chunks ...[]byte) error {
	c.put(appendChunk(nil, chunks...))
	return nil
}

func (c *fakeConn) TryWrite(b []byte) (int, error) {
	c.mu.Lock()
	c.tries++
	n := len(b)
	if c.room >= 0 {
		n = min(n, c.room)
		c.room -= n
	}
	c.mu.Unlock()
	c.put(b[:n])
	return n, nil
}

func (c *fakeConn) WriteRaw(b []byte) error {
	c.raw <- struct{}{}
	<-c.release
	c.put(b)
	return nil
}

func (c *fakeConn) Wait(func()) bool { return true }
func (c *fakeConn) Close(bool)       {}

func (c *fakeConn) bytes() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.wire.String()
}

// fakeOp is a watched operation whose events are the payloads pushed.
type fakeOp struct {
	mu     sync.Mutex
	events [][]byte
	notify transport.Notifier
}

func (o *fakeOp) push(p string) {
	o.mu.Lock()
	o.events = append(o.events, []byte(p))
	n := o.notify
	o.mu.Unlock()
	n.Notify()
}

func (o *fakeOp) Response() *httpapi.Response        { return &httpapi.Response{} }
func (o *fakeOp) Streaming() bool                    { return true }
func (o *fakeOp) Pump(func([]byte) error) error      { return nil }
func (o *fakeOp) Abandon(*httpapi.Error)             {}
func (o *fakeOp) Drain(send func([]byte) error) bool { return false }
func (o *fakeOp) Watch(notify transport.Notifier) bool {
	o.mu.Lock()
	o.notify = notify
	o.mu.Unlock()
	return true
}

func (o *fakeOp) Prefetch(int) {}

func (o *fakeOp) DrainFramed(_ any, f transport.Framing) bool {
	for {
		o.mu.Lock()
		if len(o.events) == 0 {
			o.mu.Unlock()
			return false
		}
		p := o.events[0]
		o.events = o.events[1:]
		o.mu.Unlock()
		if err := f.Send(f.Frame(nil, p)); err != nil {
			return false
		}
	}
}

// countBudget counts the bytes held.
type countBudget struct{ held atomic.Int64 }

func (b *countBudget) Hold(body []byte) ([]byte, int) {
	b.held.Add(int64(len(body)))
	return body, len(body)
}
func (b *countBudget) Release(n int) { b.held.Add(-int64(n)) }

func waitWrote(t *testing.T, c *fakeConn, want string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for c.bytes() != want {
		select {
		case <-c.wrote:
		case <-deadline:
			t.Fatalf("wrote %q, want %q", c.bytes(), want)
		}
	}
}

// TestDeliveryDoesNotWaitForASlowClient: with one worker, a stream
// whose client takes only part of an event goes on on a goroutine of its
// own, writing the rest within the write timeout, while the worker
// delivers the other streams. What is not yet written stays held in the
// budget; once written, every byte has reached the client in order.
func TestDeliveryDoesNotWaitForASlowClient(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	h := transport.NewHub(10, 10)
	budget := &countBudget{}
	h.SetBudget(budget)
	open := string(appendChunk(nil, SSE.Open))
	serve := func(c *fakeConn) *fakeOp {
		op := &fakeOp{}
		serveDetached(c, &SSE, h, 0, op, context.Background(), func(error) {})
		waitWrote(t, c, open)
		return op
	}
	slow, fast := newFakeConn(5), newFakeConn(-1)
	slowOp, fastOp := serve(slow), serve(fast)

	frame := func(p string) string { return string(SSE.chunk(nil, []byte(p))) }
	slowOp.push(`{"data":1}`)
	select {
	case <-slow.raw:
	case <-time.After(10 * time.Second):
		t.Fatal("the rest of the slow client's event was never written")
	}
	if got, want := slow.bytes(), open+frame(`{"data":1}`)[:5]; got != want {
		t.Fatalf("the slow client got %q before its write waited, want %q", got, want)
	}
	if held, want := budget.held.Load(), int64(len(frame(`{"data":1}`))); held != want {
		t.Errorf("%d bytes held while the slow client's event waits, want %d", held, want)
	}
	// The slow client's write waits; the only worker delivers the other
	// stream.
	fastOp.push(`{"data":2}`)
	waitWrote(t, fast, open+frame(`{"data":2}`))
	// An event for the slow stream while it waits follows it.
	slowOp.push(`{"data":3}`)
	close(slow.release)
	waitWrote(t, slow, open+frame(`{"data":1}`)+frame(`{"data":3}`))
	deadline := time.After(10 * time.Second)
	for budget.held.Load() != 0 {
		select {
		case <-deadline:
			t.Fatalf("%d bytes still held", budget.held.Load())
		default:
			runtime.Gosched()
		}
	}
}

// refuseBudget refuses every body with a busy answer.
type refuseBudget struct{}

func (refuseBudget) Hold([]byte) ([]byte, int) { return []byte(`{"errors":"busy"}`), 0 }
func (refuseBudget) Release(int)               {}

// TestDeliveryBusyInPlaceOfAnEventTheBudgetRefuses: an event the budget
// cannot hold is answered, in its place, by the budget's refusal framed
// as an event of the stream.
func TestDeliveryBusyInPlaceOfAnEventTheBudgetRefuses(t *testing.T) {
	h := transport.NewHub(10, 10)
	h.SetBudget(refuseBudget{})
	c := newFakeConn(-1)
	op := &fakeOp{}
	serveDetached(c, &SSE, h, 0, op, context.Background(), func(error) {})
	open := string(appendChunk(nil, SSE.Open))
	waitWrote(t, c, open)
	op.push(`{"data":1}`)
	waitWrote(t, c, open+string(SSE.chunk(nil, []byte(`{"errors":"busy"}`))))
}
