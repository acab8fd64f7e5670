//go:build !race

// Allocation sizes differ under the race detector (instrumented appends
// allocate more), so this file is built without it; .ci/run runs it
// without -race.

package exec_test

import (
	"context"
	"math"
	"runtime"
	"testing"

	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/internal/exec"
)

// TestBufferGrownOnceToTheLastAnswer: an operation remembers the size of
// its last answer, so a fresh buffer grows to it in one step: the bytes
// allocated for it are about the answer's size, not the sum of the
// doublings on the way there (about twice as much).
func TestBufferGrownOnceToTheLastAnswer(t *testing.T) {
	s, err := blog.Schema()
	if err != nil {
		t.Fatal(err)
	}
	e := exec.New(s, exec.Options{})
	doc, errs := e.Prepare(`{ authors(first: 50) { id name email posts(first: 10) { id title likes tags } } }`)
	if errs != nil {
		t.Fatal(errs)
	}
	op, _ := doc.Operation("")
	ctx := context.Background()
	first := e.Execute(ctx, op, nil, nil, nil)
	// The least of several runs: a pooled request state may be dropped
	// (always possible, often under the race detector) and then rebuilt.
	allocated := func(buf func() []byte) uint64 {
		least := uint64(math.MaxUint64)
		for range 20 {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			out := e.Execute(ctx, op, nil, buf(), nil)
			runtime.ReadMemStats(&after)
			if len(out) != len(first) {
				t.Fatalf("answer of %d bytes, want %d", len(out), len(first))
			}
			least = min(least, after.TotalAlloc-before.TotalAlloc)
		}
		return least
	}
	warm := allocated(func() []byte { return first[:0] })
	fresh := allocated(func() []byte { return nil })
	if grown := fresh - min(warm, fresh); grown > uint64(len(first))*3/2 {
		t.Errorf("a fresh buffer took %d bytes more than a large enough one, for an answer of %d bytes", grown, len(first))
	}
}
