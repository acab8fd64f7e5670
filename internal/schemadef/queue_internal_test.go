package schemadef

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/graftgql/graft/pubsub"
)

func TestQueueGrowsOnDemandAndEndsWhenFull(t *testing.T) {
	q := newQueue()
	if q.head != nil || q.rare != nil {
		t.Fatal("a new queue holds a buffer")
	}
	if size := unsafe.Sizeof(*q); size != 64 {
		t.Errorf("a queue is %d bytes, want 64: one cache line", size)
	}
	s := Sink[int]{q: q}
	// Taken in the order sent, interleaved with sends.
	for i := range 10 {
		s.Send(i)
		if i%3 == 2 {
			p, _, _ := q.TryNext()
			if want := i / 3; *(*int)(p) != want {
				t.Fatalf("took %d, want %d", *(*int)(p), want)
			}
		}
	}
	for want := 3; want < 10; want++ {
		if p, ok, _ := q.TryNext(); !ok || *(*int)(p) != want {
			t.Fatalf("took %v, want %d", p, want)
		}
	}
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
	q.Watch(notifyFunc(func() { notified++ }))
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
	if len(got) != 2 || got[0] != "a" || got[1] != "b" || q.head != nil || q.rare != nil && q.rare.more != nil {
		t.Fatalf("got %q, buffer %v %v", got, q.head, q.rare)
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
	if a.q.head != nil || a.q.rare != nil && a.q.rare.more != nil {
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

// TestSinkSourceLearnsOfTheEnd: a pubsub.Memory subscribed with the
// context a push source receives learns of the subscription's end
// through the queue's one registration with the context: the
// subscriber leaves the Memory and its end runs once, when the context
// is done, when the source subscribes twice with it, when it subscribes
// after the end, when fn fails after subscribing, and when the Memory
// closes first; many subscribe/cancel cycles leave nothing behind.
func TestSinkSourceLearnsOfTheEnd(t *testing.T) {
	m := pubsub.NewMemory(pubsub.Options{})
	var ends atomic.Int32
	subscribe := func(ctx context.Context, topics ...string) func(context.Context, struct{}, Sink[string]) error {
		return func(ctx context.Context, _ struct{}, s Sink[string]) error {
			if _, ok := ctx.(interface{ AfterFunc(func()) func() bool }); !ok {
				t.Fatal("the source's context has no AfterFunc method")
			}
			for _, topic := range topics {
				if err := m.SubscribeFunc(ctx, topic, func(p []byte) { s.Send(string(p)) }, func() { ends.Add(1); s.Close() }); err != nil {
					return err
				}
			}
			return nil
		}
	}
	waitEnds := func(want int32) {
		t.Helper()
		for ends.Load() != want {
			runtime.Gosched()
		}
	}
	last := new(atomic.Pointer[string])

	// The context's end unsubscribes; events before it are delivered.
	ctx, cancel := context.WithCancel(context.Background())
	src, err := openSink(ctx, subscribe(ctx, "a", "b"), struct{}{}, last)
	if err != nil {
		t.Fatal(err)
	}
	_ = m.Publish(ctx, "a", []byte("1"))
	if ev, ok, _ := src.Queue.TryNext(); !ok || *(*string)(ev) != "1" {
		t.Fatalf("event %v %v", ev, ok)
	}
	if m.Subscribers("a") != 1 || m.Subscribers("b") != 1 {
		t.Fatalf("%d and %d subscribers, want 1 and 1", m.Subscribers("a"), m.Subscribers("b"))
	}
	cancel()
	waitEnds(2)
	if m.Subscribers("a") != 0 || m.Subscribers("b") != 0 {
		t.Fatalf("%d and %d subscribers after the end, want 0", m.Subscribers("a"), m.Subscribers("b"))
	}
	if _, ok, ended := src.Queue.TryNext(); ok || !ended {
		t.Fatalf("queue after the end: ok %v ended %v", ok, ended)
	}

	// A source that subscribes once the context is done is told at once.
	q := src.Queue
	if err := m.SubscribeFunc(&q.ctx, "late", func([]byte) {}, func() { ends.Add(1) }); err == nil {
		waitEnds(3)
	} else {
		ends.Add(1)
	}
	if m.Subscribers("late") != 0 {
		t.Fatal("a late subscriber stayed")
	}

	// fn failing after it subscribed: the subscriber still leaves with
	// the context.
	ctx, cancel = context.WithCancel(context.Background())
	failing := func(c context.Context, a struct{}, s Sink[string]) error {
		_ = subscribe(c, "c")(c, a, s)
		return errors.New("no")
	}
	if _, err := openSink(ctx, failing, struct{}{}, last); err == nil {
		t.Fatal("fn's error was lost")
	}
	cancel()
	waitEnds(4)
	if m.Subscribers("c") != 0 {
		t.Fatal("the subscriber of a failed open stayed")
	}

	// Many cycles leave no goroutine and no subscriber behind.
	g0 := runtime.NumGoroutine()
	for i := range 1000 {
		ctx, cancel := context.WithCancel(context.Background())
		if _, err := openSink(ctx, subscribe(ctx, "d"), struct{}{}, last); err != nil {
			t.Fatal(err)
		}
		cancel()
		waitEnds(int32(5 + i))
	}
	for m.Subscribers("d") != 0 || runtime.NumGoroutine() > g0 {
		runtime.Gosched()
	}

	// Closing the Memory ends the subscriber once; the context's end
	// later runs nothing more.
	ctx, cancel = context.WithCancel(context.Background())
	if _, err := openSink(ctx, subscribe(ctx, "e"), struct{}{}, last); err != nil {
		t.Fatal(err)
	}
	before := ends.Load()
	_ = m.Close()
	if ends.Load() != before+1 {
		t.Fatalf("Close ran %d ends, want 1", ends.Load()-before)
	}
	cancel()
	runtime.Gosched()
	if ends.Load() != before+1 {
		t.Fatalf("end ran %d times, want once", ends.Load()-before)
	}
}

// notifyFunc is a function as a Notifier.
type notifyFunc func()

func (f notifyFunc) Notify() { f() }
