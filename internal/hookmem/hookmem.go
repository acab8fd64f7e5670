// Package hookmem is memory a request's hooks may take within the
// request's own allocation, rather than allocating per request: the
// router keeps a Span in the state of each request it runs hooks for, and
// Take hands it out once.
//
// A Span is memory shaped for graftotel's span of a request its sampler
// dropped, which is also that request's context: three interface values
// (two words each, scanned as pointers by the garbage collector) and 32
// bytes of plain data. graftotel checks that its type has this shape
// before using it, and allocates its own when it has not.
package hookmem

import "unsafe"

// Span is the memory of one span: Ifaces hold interface values, Words
// the rest.
type Span struct {
	Ifaces [3][2]unsafe.Pointer
	Words  [4]uint64
}

// Take returns the Span of the request whose hook event ev is (a
// *graft.HookEvent), and marks it taken: nil when it was taken already,
// or when the request has none. Package graft sets it; hooks call it as the router
// calls them, one at a time.
var Take func(ev any) *Span
