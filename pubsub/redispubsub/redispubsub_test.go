package redispubsub_test

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/graftgql/graft/internal/testenv"
	"github.com/graftgql/graft/pubsub/redispubsub"
)

// waitSubscribed waits until Redis counts n subscribers of channel, so a
// publish cannot overtake the SUBSCRIBE command.
func waitSubscribed(t *testing.T, c *redis.Client, channel string, n int64) {
	t.Helper()
	for {
		m, err := c.PubSubNumSub(context.Background(), channel).Result()
		if err != nil {
			t.Fatal(err)
		}
		if m[channel] == n {
			return
		}
	}
}

func TestAcrossInstances(t *testing.T) {
	addr, _ := testenv.StartRedis(t)
	ca := redis.NewClient(&redis.Options{Addr: addr})
	cb := redis.NewClient(&redis.Options{Addr: addr})
	defer ca.Close()
	defer cb.Close()
	a := redispubsub.New(ca, redispubsub.Options{})
	b := redispubsub.New(cb, redispubsub.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	onA, err := a.Subscribe(ctx, "room")
	if err != nil {
		t.Fatal(err)
	}
	onB, err := b.Subscribe(ctx, "room")
	if err != nil {
		t.Fatal(err)
	}
	onB2, _ := b.Subscribe(ctx, "room")
	// One Redis subscription per instance, however many local subscribers.
	waitSubscribed(t, ca, redispubsub.DefaultPrefix+"room", 2)
	if err := a.Publish(ctx, "room", []byte("hello")); err != nil {
		t.Fatal(err)
	}
	for i, ch := range []<-chan []byte{onA, onB, onB2} {
		if got := string(<-ch); got != "hello" {
			t.Fatalf("subscriber %d got %q", i, got)
		}
	}
	cancel()
	for _, ch := range []<-chan []byte{onA, onB, onB2} {
		for range ch {
		}
	}
	waitSubscribed(t, ca, redispubsub.DefaultPrefix+"room", 0)
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	_ = b.Close()
}

func TestRedisDown(t *testing.T) {
	addr, srv := testenv.StartRedis(t)
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer c.Close()
	p := redispubsub.New(c, redispubsub.Options{})
	defer p.Close()
	srv.Stop()
	if err := p.Publish(context.Background(), "room", []byte("x")); err == nil {
		t.Fatal("Publish succeeded with Redis down")
	}
	if _, err := p.Subscribe(context.Background(), "room"); err == nil {
		t.Fatal("Subscribe succeeded with Redis down")
	}
	srv.Start()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch, err := p.Subscribe(ctx, "room")
	if err != nil {
		t.Fatalf("Subscribe after Redis came back: %v", err)
	}
	waitSubscribed(t, c, redispubsub.DefaultPrefix+"room", 1)
	if err := p.Publish(ctx, "room", []byte("back")); err != nil {
		t.Fatal(err)
	}
	if got := string(<-ch); got != "back" {
		t.Fatalf("got %q", got)
	}
}
