package graft

import (
	"context"
	"runtime"
	"testing"
	"unsafe"

	"github.com/graftgql/graft/internal/hookmem"
	"github.com/graftgql/graft/schema"
)

// TestHookedStateSizeClass: a hooked request's state, with the memory a
// hook may take (hookmem), stays within the 1,024-byte size class with
// its allocation header (8 bytes).
func TestHookedStateSizeClass(t *testing.T) {
	if n := unsafe.Sizeof(hookedState{}); n+8 > 1024 {
		t.Fatalf("hookedState is %d bytes: a hooked request would take the next size class", n)
	}
	// Goroutines other tests left may allocate meanwhile, which only adds:
	// the least of a few runs is the state's own, and the next class is
	// 128 bytes further.
	least := uint64(1 << 62)
	for range 5 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 10000 {
			sinkState = &hookedState{}
		}
		runtime.ReadMemStats(&after)
		least = min(least, (after.TotalAlloc-before.TotalAlloc)/10000)
	}
	if least < 1024 || least > 1024+32 {
		t.Fatalf("a hookedState of %d bytes takes %d bytes: want the 1,024-byte class", unsafe.Sizeof(hookedState{}), least)
	}
}

var sinkState *hookedState

// TestHookMemTakenOnce: hookmem.Take hands a request's span memory to one
// hook, once, and none for a request without a hooked state.
func TestHookMemTakenOnce(t *testing.T) {
	var taken []*hookmem.Span
	hook := HookFuncs{BeforeFunc: func(_ context.Context, ev *HookEvent) error {
		if ev.Phase == PhaseReceived {
			taken = append(taken, hookmem.Take(ev), hookmem.Take(ev))
		}
		return nil
	}}
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(context.Context) (string, error) { return "world", nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRouter(s, nil, Config{Hooks: []Hook{hook}})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if status, body := r.Execute(context.Background(), Request{Query: "{ hello }"}); status != 200 {
			t.Fatalf("%d %s", status, body)
		}
	}
	if len(taken) != 4 || taken[0] == nil || taken[1] != nil || taken[2] == nil || taken[3] != nil || taken[0] == taken[2] {
		t.Fatalf("taken %v: want one span memory per request, handed out once", taken)
	}
	if m := hookmem.Take(&HookEvent{}); m != nil {
		t.Fatal("an event outside a request's run has span memory")
	}
}
