package pubsub_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/graftgql/graft/pubsub"
)

func TestMemoryFanOut(t *testing.T) {
	m := pubsub.NewMemory(pubsub.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, _ := m.Subscribe(ctx, "t")
	b, _ := m.Subscribe(ctx, "t")
	other, _ := m.Subscribe(ctx, "u")
	if err := m.Publish(ctx, "t", []byte("hi")); err != nil {
		t.Fatal(err)
	}
	for _, ch := range []<-chan []byte{a, b} {
		if got := string(<-ch); got != "hi" {
			t.Fatalf("got %q", got)
		}
	}
	select {
	case p := <-other:
		t.Fatalf("other topic got %q", p)
	default:
	}
}

func TestMemoryCancelUnsubscribes(t *testing.T) {
	m := pubsub.NewMemory(pubsub.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	ch, _ := m.Subscribe(ctx, "t")
	cancel()
	if _, ok := <-ch; ok {
		t.Fatal("channel open after cancel")
	}
	if n := m.Subscribers("t"); n != 0 {
		t.Fatalf("%d subscribers left", n)
	}
}

func TestMemorySlowConsumer(t *testing.T) {
	t.Run("is disconnected once its buffer is full", func(t *testing.T) {
		m := pubsub.NewMemory(pubsub.Options{Buffer: 2})
		slow, _ := m.Subscribe(context.Background(), "t")
		fast, _ := m.Subscribe(context.Background(), "t")
		for i := range 3 {
			_ = m.Publish(context.Background(), "t", []byte{byte('0' + i)})
			<-fast
		}
		got := ""
		for p := range slow {
			got += string(p)
		}
		if got != "01" {
			t.Fatalf("slow consumer got %q before the close, want 01", got)
		}
		if n := m.Subscribers("t"); n != 1 {
			t.Fatalf("%d subscribers, want the fast one", n)
		}
	})
	t.Run("misses events with DropWhenFull", func(t *testing.T) {
		m := pubsub.NewMemory(pubsub.Options{Buffer: 1, DropWhenFull: true})
		ctx, cancel := context.WithCancel(context.Background())
		slow, _ := m.Subscribe(ctx, "t")
		_ = m.Publish(ctx, "t", []byte("a"))
		_ = m.Publish(ctx, "t", []byte("b"))
		if got := string(<-slow); got != "a" {
			t.Fatalf("got %q", got)
		}
		_ = m.Publish(ctx, "t", []byte("c"))
		if got := string(<-slow); got != "c" {
			t.Fatalf("got %q", got)
		}
		cancel()
	})
}

func TestMemoryClose(t *testing.T) {
	m := pubsub.NewMemory(pubsub.Options{})
	ch, _ := m.Subscribe(context.Background(), "t")
	_ = m.Close()
	if _, ok := <-ch; ok {
		t.Fatal("channel open after Close")
	}
	if err := m.Publish(context.Background(), "t", nil); !errors.Is(err, pubsub.ErrClosed) {
		t.Fatalf("Publish after Close: %v", err)
	}
	if _, err := m.Subscribe(context.Background(), "t"); !errors.Is(err, pubsub.ErrClosed) {
		t.Fatalf("Subscribe after Close: %v", err)
	}
}

func TestMemoryByteBound(t *testing.T) {
	kib := make([]byte, 1024)
	t.Run("disconnects a subscriber whose waiting payloads exceed the bytes", func(t *testing.T) {
		m := pubsub.NewMemory(pubsub.Options{Buffer: 100, BufferBytes: 3 * 1024})
		slow, _ := m.Subscribe(context.Background(), "t")
		for range 4 {
			_ = m.Publish(context.Background(), "t", kib)
		}
		n := 0
		for range slow {
			n++
		}
		if n != 3 {
			t.Fatalf("%d payloads before the close, want 3", n)
		}
	})
	t.Run("counts only what is still waiting", func(t *testing.T) {
		m := pubsub.NewMemory(pubsub.Options{Buffer: 100, BufferBytes: 3 * 1024})
		ch, _ := m.Subscribe(context.Background(), "t")
		for i := range 10 {
			_ = m.Publish(context.Background(), "t", kib)
			if _, ok := <-ch; !ok {
				t.Fatalf("closed after %d payloads taken one by one", i)
			}
		}
		if m.Subscribers("t") != 1 {
			t.Fatal("a subscriber that keeps up was disconnected")
		}
	})
	t.Run("drops with DropWhenFull", func(t *testing.T) {
		m := pubsub.NewMemory(pubsub.Options{Buffer: 100, BufferBytes: 2 * 1024, DropWhenFull: true})
		ch, _ := m.Subscribe(context.Background(), "t")
		for range 5 {
			_ = m.Publish(context.Background(), "t", kib)
		}
		if len(ch) != 2 || m.Subscribers("t") != 1 {
			t.Fatalf("%d waiting, %d subscribers; want 2 and 1", len(ch), m.Subscribers("t"))
		}
	})
	t.Run("a payload larger than the bound reaches an idle subscriber", func(t *testing.T) {
		m := pubsub.NewMemory(pubsub.Options{BufferBytes: 100})
		ch, _ := m.Subscribe(context.Background(), "t")
		_ = m.Publish(context.Background(), "t", kib)
		if p := <-ch; len(p) != 1024 {
			t.Fatalf("got %d bytes", len(p))
		}
	})
}

func TestMemorySubscribeFunc(t *testing.T) {
	m := pubsub.NewMemory(pubsub.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	var got []string // written by Publish, called below in this goroutine
	ended := make(chan struct{})
	if err := pubsub.SubscribeFunc(ctx, m, "t", func(p []byte) { got = append(got, string(p)) }, func() { close(ended) }); err != nil {
		t.Fatal(err)
	}
	_ = m.Publish(ctx, "t", []byte("a"))
	_ = m.Publish(ctx, "u", []byte("x"))
	_ = m.Publish(ctx, "t", []byte("b"))
	cancel()
	<-ended
	_ = m.Publish(context.Background(), "t", []byte("c"))
	if strings.Join(got, ",") != "a,b" || m.Subscribers("t") != 0 {
		t.Fatalf("delivered %q, %d subscribers", got, m.Subscribers("t"))
	}
	// Close ends the remaining ones.
	closed := make(chan struct{})
	_ = pubsub.SubscribeFunc(context.Background(), m, "t", func([]byte) {}, func() { close(closed) })
	_ = m.Close()
	<-closed
}

// chanOnly hides Memory's SubscribeFunc.
type chanOnly struct{ pubsub.PubSub }

func TestSubscribeFuncOverAChannel(t *testing.T) {
	m := pubsub.NewMemory(pubsub.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	got, ended := make(chan string, 4), make(chan struct{})
	if err := pubsub.SubscribeFunc(ctx, chanOnly{m}, "t", func(p []byte) { got <- string(p) }, func() { close(ended) }); err != nil {
		t.Fatal(err)
	}
	_ = m.Publish(ctx, "t", []byte("a"))
	if p := <-got; p != "a" {
		t.Fatalf("got %q", p)
	}
	cancel()
	<-ended
}

// afterCtx is a context that schedules its own AfterFunc calls.
type afterCtx struct {
	context.Context
	f       func()
	stopped int
}

func (c *afterCtx) AfterFunc(f func()) func() bool {
	c.f = f
	return func() bool { c.stopped++; return true }
}

// TestMemoryAsksTheContextsAfterFunc: a context with an AfterFunc method
// is asked to tell the Memory of its end, instead of context.AfterFunc;
// the call it schedules unsubscribes and ends once, and Close stops it.
func TestMemoryAsksTheContextsAfterFunc(t *testing.T) {
	m := pubsub.NewMemory(pubsub.Options{})
	ctx := &afterCtx{Context: context.Background()}
	ends := 0
	if err := m.SubscribeFunc(ctx, "t", func([]byte) {}, func() { ends++ }); err != nil {
		t.Fatal(err)
	}
	if ctx.f == nil || m.Subscribers("t") != 1 {
		t.Fatalf("AfterFunc asked: %v; %d subscribers", ctx.f != nil, m.Subscribers("t"))
	}
	ctx.f()
	ctx.f()
	if m.Subscribers("t") != 0 || ends != 1 || ctx.stopped != 1 {
		t.Fatalf("%d subscribers, %d ends, %d stops; want 0, 1, 1", m.Subscribers("t"), ends, ctx.stopped)
	}
	ctx2 := &afterCtx{Context: context.Background()}
	if _, err := m.Subscribe(ctx2, "t"); err != nil {
		t.Fatal(err)
	}
	_ = m.Close()
	if m.Subscribers("t") != 0 || ctx2.stopped != 1 {
		t.Fatalf("after Close: %d subscribers, %d stops", m.Subscribers("t"), ctx2.stopped)
	}
}

// TestMemorySubscribeFuncNilDeliver: a SubscribeFunc subscriber without
// a deliver function is still one, never taken for a channel's.
func TestMemorySubscribeFuncNilDeliver(t *testing.T) {
	m := pubsub.NewMemory(pubsub.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan struct{})
	if err := m.SubscribeFunc(ctx, "t", nil, func() { close(ended) }); err != nil {
		t.Fatal(err)
	}
	_ = m.Publish(ctx, "t", []byte("a"))
	cancel()
	<-ended
	if m.Subscribers("t") != 0 {
		t.Fatal("the subscriber stayed")
	}
}
