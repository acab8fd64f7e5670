package graft

import (
	"context"
	"errors"
	"testing"
	"time"
)

// The private dependencies graft keeps, each behind one seam whose test
// fails loudly when a Go or library upgrade changes what the seam relies
// on. Review the seam, not just the test, when one of these fails.

// timeout.go: the execution context hides package context's private link
// to the nearest cancelable ancestor (cancelCtxKey, learned by a probe),
// so derived contexts end with it and not with the ancestor.
func TestSeamContextCancelKey(t *testing.T) {
	if cancelCtxKey == nil {
		t.Fatal("the probe no longer learns package context's key for the nearest cancelable context: review deadlineCtx.Value (timeout.go)")
	}
	parent, cancelParent := context.WithCancelCause(context.Background())
	defer cancelParent(nil)
	if v := parent.Value(cancelCtxKey); v != any(parent) {
		t.Fatalf("package context's key leads to %T, not the cancelable context itself: review timeout.go", v)
	}
	var w watchdog
	d := w.start(parent, time.Hour)
	if d.Value(cancelCtxKey) != nil {
		t.Fatal("the execution context exposes its ancestor's cancel link")
	}
	child, cancelChild := context.WithCancelCause(d)
	defer cancelChild(nil)
	d.finish()
	<-child.Done()
	if !errors.Is(context.Cause(child), context.Canceled) || parent.Err() != nil {
		t.Fatalf("child cause %v, parent %v", context.Cause(child), parent.Err())
	}
}
