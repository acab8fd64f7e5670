package exec_test

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"weak"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/schema"
)

type ctxKey struct{}

// TestRetainedContextStaysWithItsRequest keeps the context a resolver
// received and uses it during later requests run with the same engine: it
// must keep its own request's values and cancellation, and an error added
// through it must never reach another request's response.
func TestRetainedContextStaysWithItsRequest(t *testing.T) {
	var kept []context.Context
	b := schema.New()
	schema.QueryNoArgs(b, "keep", func(ctx context.Context) (string, error) {
		kept = append(kept, ctx)
		return "kept", nil
	})
	schema.QueryNoArgs(b, "late", func(ctx context.Context) (string, error) {
		// Errors added through every context kept so far.
		for _, k := range kept {
			exec.AddError(k, errors.New("late error"))
		}
		return "late", nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	e := exec.New(s, exec.Options{})
	run := func(ctx context.Context, query string) string {
		t.Helper()
		doc, errs := e.Prepare(query)
		if errs != nil {
			t.Fatal(errs)
		}
		op, gerr := doc.Operation("")
		if gerr != nil {
			t.Fatal(gerr)
		}
		return string(e.Execute(ctx, op, nil, nil, nil))
	}
	var cancels []context.CancelFunc
	for i := range 40 {
		ctx, cancel := context.WithCancel(context.WithValue(context.Background(), ctxKey{}, i))
		cancels = append(cancels, cancel)
		if got, want := run(ctx, "{ keep }"), `{"data":{"keep":"kept"}}`; got != want {
			t.Fatalf("request %d: got %s, want %s", i, got, want)
		}
		if i%2 == 1 {
			if got, want := run(context.Background(), "{ late }"), `{"data":{"late":"late"}}`; got != want {
				t.Fatalf("after request %d: got %s, want %s", i, got, want)
			}
		}
	}
	cancels[7]()
	for i, k := range kept {
		if v := k.Value(ctxKey{}); v != i {
			t.Errorf("kept context %d: value %v", i, v)
		}
		if got, want := k.Err() != nil, i == 7; got != want {
			t.Errorf("kept context %d: cancelled %v, want %v", i, got, want)
		}
	}
	for _, c := range cancels {
		c()
	}
}

// TestFinishedRequestKeepsNoContext: once a request is answered, the
// engine keeps nothing of the caller's context (the router's request
// state, its services and its response hang from it), even though its
// request state is pooled.
func TestFinishedRequestKeepsNoContext(t *testing.T) {
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(ctx context.Context) (string, error) { return "world", nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	e := exec.New(s, exec.Options{})
	doc, errs := e.Prepare("{ hello }")
	if errs != nil {
		t.Fatal(errs)
	}
	op, gerr := doc.Operation("")
	if gerr != nil {
		t.Fatal(gerr)
	}
	var refs []weak.Pointer[[1 << 16]byte]
	for range 8 {
		big := new([1 << 16]byte)
		refs = append(refs, weak.Make(big))
		ctx := context.WithValue(context.Background(), ctxKey{}, big)
		if got := string(e.Execute(ctx, op, nil, nil, nil)); got != `{"data":{"hello":"world"}}` {
			t.Fatal(got)
		}
	}
	runtime.GC()
	for i, r := range refs {
		if r.Value() != nil {
			t.Errorf("request %d: its context is still reachable after the answer", i)
		}
	}
}
