package persisted

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"testing"
)

// TestMemoryStoreBytes: the store holds at most its byte budget, refuses
// a query over an eighth of it, and counts evictions.
func TestMemoryStoreBytes(t *testing.T) {
	ctx := context.Background()
	s, err := NewMemoryStoreBytes(1000, 64<<10)
	if err != nil {
		t.Fatal(err)
	}
	q := strings.Repeat("x", 4<<10)
	for i := range 100 {
		h := Hash(SHA256, q+string(rune('a'+i%26))+strings.Repeat("y", i))
		_ = s.Set(ctx, h, q)
	}
	st := s.Stats()
	if st.Bytes > 64<<10 || st.Entries >= 16 || st.Evictions == 0 || st.Evictions+uint64(st.Entries) != 100 {
		t.Fatalf("stats = %+v; want at most 64 KiB held and the rest evicted", st)
	}
	_ = s.Set(ctx, "big", strings.Repeat("x", 9<<10))
	if _, ok, _ := s.Get(ctx, "big"); ok || s.Stats().Refused != 1 {
		t.Fatalf("a query over an eighth of the budget was stored: %+v", s.Stats())
	}
	if _, err := NewMemoryStoreBytes(1, 0); err == nil {
		t.Error("a zero byte budget was accepted")
	}
}

// TestMemoryStoreLogsEvictions: the store says, once and then every 1,000
// evictions, that it is full, with its size.
func TestMemoryStoreLogsEvictions(t *testing.T) {
	var logs strings.Builder
	store, _ := NewMemoryStore(10)
	store.SetLogger(slog.New(slog.NewTextHandler(&logs, nil)))
	ctx := context.Background()
	for i := range 1010 {
		_ = store.Set(ctx, Hash(SHA256, strconv.Itoa(i)), "{ a }")
	}
	lines := strings.Count(logs.String(), "the APQ memory store is full")
	if lines != 2 || !strings.Contains(logs.String(), "entries=10") || !strings.Contains(logs.String(), "evictions=1000") {
		t.Fatalf("%d eviction lines, want 2 (the first eviction and the 1000th):\n%s", lines, logs.String())
	}
	if st := store.Stats(); st.Evictions != 1000 || st.Entries != 10 {
		t.Fatalf("stats = %+v", st)
	}
}
