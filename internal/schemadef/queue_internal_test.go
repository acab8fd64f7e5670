package schemadef

import (
	"context"
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
