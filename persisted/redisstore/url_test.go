package redisstore

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/testenv"
)

func TestNewFromURL(t *testing.T) {
	addr, _ := testenv.StartRedis(t)
	ctx := context.Background()
	t.Run("connects and closes its client", func(t *testing.T) {
		s, err := NewFromURL("redis://"+addr+"/2", Options{Prefix: "url:"})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Set(ctx, hash, query); err != nil {
			t.Fatal(err)
		}
		if q, ok, err := s.Get(ctx, hash); q != query || !ok || err != nil {
			t.Fatalf("Get = %q, %v, %v", q, ok, err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Get(ctx, otherHash); err == nil {
			t.Error("Get after Close succeeded")
		}
	})
	t.Run("a bad URL is an error", func(t *testing.T) {
		_, err := NewFromURL("http://"+addr, Options{})
		if err == nil || !strings.HasPrefix(err.Error(), "redisstore: ") {
			t.Fatalf("err = %v, want a redisstore error", err)
		}
	})
	t.Run("Close leaves a caller's client open", func(t *testing.T) {
		c := newClient(t, addr, true)
		if err := New(c, Options{}).Close(); err != nil {
			t.Fatal(err)
		}
		if err := c.Ping(ctx).Err(); err != nil {
			t.Fatalf("the caller's client was closed: %v", err)
		}
	})
}

func TestCanceledContext(t *testing.T) {
	addr, _ := testenv.StartRedis(t)
	for _, ctxTO := range []bool{true, false} {
		s := New(newClient(t, addr, ctxTO), Options{})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, _, err := s.Get(ctx, hash); !errors.Is(err, context.Canceled) {
			t.Errorf("context timeouts %v: Get with a canceled context = %v, want context.Canceled", ctxTO, err)
		}
	}
}
