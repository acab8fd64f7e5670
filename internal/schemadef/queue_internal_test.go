package schemadef

import (
	"context"
	"sync/atomic"
	"testing"
)

func TestQueueGrowsOnDemandAndEndsWhenFull(t *testing.T) {
	q := newQueue()
	if q.items != nil {
		t.Fatal("a new queue holds a buffer")
	}
	s := Sink[int]{q: q}
	for i := range DefaultSinkQueue {
		if !s.Send(i) {
			t.Fatalf("send %d refused", i)
		}
	}
	// One more than the bound ends the stream: the slow subscriber is
	// disconnected, and what waited is dropped.
	if s.Send(-1) {
		t.Fatal("a send past the bound was accepted")
	}
	if _, ok, ended := q.TryNext(); ok || !ended {
		t.Fatalf("after overflow: ok %v ended %v, want the end", ok, ended)
	}
	if s.Send(0) {
		t.Fatal("a send after the end was accepted")
	}
}

func TestQueueDeliversInOrderThenEnds(t *testing.T) {
	q := newQueue()
	s := Sink[string]{q: q}
	notified := 0
	s.Send("a")
	q.Watch(func() { notified++ })
	if notified != 1 {
		t.Fatalf("Watch with an event waiting notified %d times, want 1", notified)
	}
	s.Send("b")
	s.Close()
	if notified != 3 {
		t.Fatalf("notified %d times, want 3", notified)
	}
	var got []string
	for {
		p, ok, ended := q.TryNext()
		if !ok {
			if !ended {
				t.Fatal("not ended after Close")
			}
			break
		}
		got = append(got, *(*string)(p))
	}
	if len(got) != 2 || got[0] != "a" || got[1] != "b" || q.items != nil {
		t.Fatalf("got %q, buffer %v", got, q.items)
	}
}

func TestQueuePullForm(t *testing.T) {
	q := newQueue()
	s := Sink[int]{q: q}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan []int)
	go func() {
		var got []int
		for {
			p, ok := q.next(ctx)
			if !ok {
				done <- got
				return
			}
			got = append(got, *(*int)(p))
		}
	}()
	s.Send(1)
	s.Send(2)
	s.Close()
	if got := <-done; len(got) != 2 || got[1] != 2 {
		t.Fatalf("got %v", got)
	}
	cancel()
	// A cancelled context ends a wait.
	if _, ok := newQueue().next(ctx); ok {
		t.Fatal("next returned an event after cancel")
	}
}

type sinkEvent struct {
	ID, Text string
	N        int
}

// TestSinkSharesOneValue: the sinks of one field sending the same event
// queue one value between them, and a subscriber that keeps up queues
// and takes an event without allocating; a different event is a new
// value, and the values queued before it are unchanged.
func TestSinkSharesOneValue(t *testing.T) {
	last := new(atomic.Pointer[sinkEvent])
	a, b := Sink[sinkEvent]{newQueue(), last}, Sink[sinkEvent]{newQueue(), last}
	ev := sinkEvent{"1", "hi", 7}
	a.Send(ev)
	b.Send(ev)
	pa, _, _ := a.q.TryNext()
	pb, _, _ := b.q.TryNext()
	if pa != pb {
		t.Error("two subscribers were queued copies of one event")
	}
	if a.q.items != nil {
		t.Error("an emptied queue holds a buffer")
	}
	allocs := testing.AllocsPerRun(100, func() {
		a.Send(ev)
		if _, ok, _ := a.q.TryNext(); !ok {
			t.Fatal("no event")
		}
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per event sent and taken, want 0", allocs)
	}
	a.Send(sinkEvent{"2", "there", 8})
	pc, _, _ := a.q.TryNext()
	if pc == pa || *(*sinkEvent)(pc) != (sinkEvent{"2", "there", 8}) || *(*sinkEvent)(pa) != ev {
		t.Errorf("events %v and %v", *(*sinkEvent)(pa), *(*sinkEvent)(pc))
	}
}
