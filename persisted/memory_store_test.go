package persisted

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

func TestNewMemoryStoreSize(t *testing.T) {
	for _, size := range []int{0, -1} {
		if _, err := NewMemoryStore(size); err == nil {
			t.Errorf("NewMemoryStore(%d) succeeded, want an error", size)
		}
	}
	if _, err := NewMemoryStore(1); err != nil {
		t.Errorf("NewMemoryStore(1): %v", err)
	}
}

func TestMemoryStoreEviction(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		ops     []string // "set k", "get k"
		present []string
		absent  []string
	}{
		{"the oldest entry goes first", []string{"set a", "set b", "set c", "set d"}, []string{"b", "c", "d"}, []string{"a"}},
		{"a read refreshes recency", []string{"set a", "set b", "set c", "get a", "set d"}, []string{"a", "c", "d"}, []string{"b"}},
		{"a rewrite refreshes recency", []string{"set a", "set b", "set c", "set a", "set d"}, []string{"a", "c", "d"}, []string{"b"}},
		{"a miss changes nothing", []string{"set a", "set b", "set c", "get z", "set d"}, []string{"b", "c", "d"}, []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := NewMemoryStore(3)
			for _, op := range tt.ops {
				var verb, key string
				fmt.Sscan(op, &verb, &key)
				if verb == "set" {
					_ = s.Set(ctx, key, "query "+key)
				} else {
					_, _, _ = s.Get(ctx, key)
				}
			}
			if s.Len() != len(tt.present) {
				t.Errorf("Len = %d, want %d", s.Len(), len(tt.present))
			}
			for _, k := range tt.present {
				if q, ok, err := s.Get(ctx, k); !ok || err != nil || q != "query "+k {
					t.Errorf("Get(%q) = %q, %v, %v; want present", k, q, ok, err)
				}
			}
			for _, k := range tt.absent {
				if _, ok, _ := s.Get(ctx, k); ok {
					t.Errorf("Get(%q) found an evicted entry", k)
				}
			}
		})
	}
}

func TestMemoryStoreConcurrent(t *testing.T) {
	s, _ := NewMemoryStore(64)
	ctx := context.Background()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				k := fmt.Sprintf("k%d", (g*200+i)%100)
				_ = s.Set(ctx, k, k)
				if q, ok, _ := s.Get(ctx, k); ok && q != k {
					t.Errorf("Get(%q) = %q", k, q)
				}
			}
		}()
	}
	wg.Wait()
	if s.Len() > 64 {
		t.Errorf("Len = %d, over the maximum of 64", s.Len())
	}
}
