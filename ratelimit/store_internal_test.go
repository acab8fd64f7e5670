package ratelimit

import (
	"context"
	"testing"
	"time"
)

// TestMemoryStoreWindows: a key's window ends Window after its first
// charge, then its spending starts again and its place is free.
func TestMemoryStoreWindows(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	s := NewMemoryStore(1)
	s.now = func() time.Time { return now }
	ctx := context.Background()
	if u, _ := s.Spend(ctx, "x", 8, 10, time.Minute); !u.Allowed || !u.Reset.Equal(now.Add(time.Minute)) {
		t.Fatalf("x: %+v", u)
	}
	now = now.Add(30 * time.Second)
	if u, _ := s.Spend(ctx, "x", 3, 10, time.Minute); u.Allowed || u.Spent != 8 {
		t.Fatalf("x within the window: %+v", u)
	}
	if u, _ := s.Spend(ctx, "y", 10, 10, time.Minute); !u.Allowed || s.Len() != 1 {
		t.Fatalf("y, charged to the overflow while x holds the only place: %+v", u)
	}
	now = now.Add(31 * time.Second)
	if u, _ := s.Spend(ctx, "y", 3, 10, time.Minute); !u.Allowed || u.Spent != 3 || s.Len() != 1 {
		t.Fatalf("y after x's window ended: %+v, %d keys", u, s.Len())
	}
	if u, _ := s.Spend(ctx, "x", 3, 10, time.Minute); u.Allowed || u.Spent != 10 {
		t.Fatalf("x, now in the overflow y spent: %+v", u)
	}
}
