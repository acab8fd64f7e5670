package pubsub_test

import (
	"context"
	"errors"
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
