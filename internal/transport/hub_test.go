package transport

import (
	"sync/atomic"
	"testing"
)

type closer struct{ n *atomic.Int32 }

func (c closer) Shutdown() { c.n.Add(1) }

func TestHubBoundsAndShutdown(t *testing.T) {
	h := NewHub(2, 1)
	if !h.AcquireConn() || !h.AcquireConn() || h.AcquireConn() {
		t.Fatal("connections not bounded at 2")
	}
	h.ReleaseConn()
	if !h.AcquireSub() || h.AcquireSub() {
		t.Fatal("subscriptions not bounded at 1")
	}
	if conns, subs := h.Counts(); conns != 1 || subs != 1 {
		t.Fatalf("counts %d %d", conns, subs)
	}
	var n atomic.Int32
	a, b := closer{&n}, closer{new(atomic.Int32)}
	if !h.Track(a) || !h.Track(b) {
		t.Fatal("Track before shutdown")
	}
	h.Untrack(b)
	h.Close()
	h.Close()
	select {
	case <-h.Closing():
	default:
		t.Fatal("Closing not closed")
	}
	if n.Load() != 1 || b.n.Load() != 0 {
		t.Fatalf("shutdown told %d, untracked %d", n.Load(), b.n.Load())
	}
	if h.Track(a) || h.AcquireConn() {
		t.Fatal("a connection accepted after shutdown")
	}
}

type halfBudget struct{ held int }

func (b *halfBudget) Hold(body []byte) ([]byte, int) {
	if len(body) > 4 {
		return []byte("busy"), 0
	}
	b.held += len(body)
	return body, len(body)
}

func (b *halfBudget) Release(n int) { b.held -= n }

// TestHubHold: without a budget every body passes; with one, the budget
// decides and the release gives the bytes back.
func TestHubHold(t *testing.T) {
	h := NewHub(1, 1)
	if send, held := h.Hold([]byte("large body")); string(send) != "large body" || held != 0 {
		t.Fatalf("no budget: %q, held %d", send, held)
	}
	b := &halfBudget{}
	h.SetBudget(b)
	if send, _ := h.Hold([]byte("large body")); string(send) != "busy" {
		t.Fatalf("over the budget: %q", send)
	}
	send, held := h.Hold([]byte("ok"))
	if string(send) != "ok" || b.held != 2 {
		t.Fatalf("within: %q, held %d", send, b.held)
	}
	h.Release(held)
	if b.held != 0 {
		t.Fatalf("after release: held %d", b.held)
	}
}
