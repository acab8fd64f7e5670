package exec_test

import (
	"context"
	"testing"

	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/internal/exec"
)

// TestBufferGrownOnceToTheLastAnswer: an operation remembers the size of
// its last answer, so a fresh buffer grows to it in one step.
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
	first := e.Execute(context.Background(), op, nil, nil, nil)
	ctx := context.Background()
	warm := testing.AllocsPerRun(20, func() { e.Execute(ctx, op, nil, first[:0], nil) })
	fresh := testing.AllocsPerRun(20, func() {
		if out := e.Execute(ctx, op, nil, nil, nil); len(out) != len(first) {
			t.Fatalf("answer of %d bytes, want %d", len(out), len(first))
		}
	})
	if fresh > warm+1 {
		t.Errorf("a fresh buffer took %v allocations, a large enough one %v: want one more at most", fresh, warm)
	}
}
