package exec

import (
	"context"
	"sync"
	"sync/atomic"
)

// sinkKey is the context key under which a resolver's context holds its
// errorAdder.
type sinkKey struct{}

// reqCtx is the context resolvers receive: the caller's context, which
// also carries the request's error sink (made on the first AddError). A
// reqCtx is used by one request only and never reused, since a resolver
// may keep its context after the request (a goroutine, a loader). It is
// not kept by the pooled request either: a context kept there would keep
// the caller's request state, its services and its response alive past
// the request.
type reqCtx struct {
	context.Context
	sink atomic.Pointer[errorSink]
}

// Value returns the request context itself for sinkKey (see AddError),
// or the caller's value.
func (c *reqCtx) Value(k any) any {
	if _, ok := k.(sinkKey); ok {
		return c
	}
	return c.Context.Value(k)
}

// addError records err in the request's sink, making it when needed.
func (c *reqCtx) addError(err error) {
	s := c.sink.Load()
	if s == nil {
		s = &errorSink{}
		if !c.sink.CompareAndSwap(nil, s) {
			s = c.sink.Load()
		}
	}
	s.addError(err)
}

// take returns and clears the errors recorded so far.
func (c *reqCtx) take() []error {
	if s := c.sink.Load(); s != nil {
		return s.take()
	}
	return nil
}

// newReqCtx returns a fresh reqCtx of the request on the caller's ctx.
func (r *request) newReqCtx(ctx context.Context) *reqCtx {
	return &reqCtx{Context: ctx}
}

// errorAdder is what a resolver's context holds under sinkKey.
type errorAdder interface{ addError(err error) }

// errorSink collects the errors resolvers report with AddError; the
// executor attaches them to the field whose resolver ran.
type errorSink struct {
	n    atomic.Int32 // len(errs), read without the lock
	mu   sync.Mutex
	errs []error
}

// AddError records err as an error of the field whose resolver received
// ctx. It reports false when ctx is not a resolver's context.
func AddError(ctx context.Context, err error) bool {
	s, ok := ctx.Value(sinkKey{}).(errorAdder)
	if !ok || err == nil {
		return false
	}
	s.addError(err)
	return true
}

// addError records err.
func (s *errorSink) addError(err error) {
	s.mu.Lock()
	s.errs = append(s.errs, err)
	s.n.Store(int32(len(s.errs)))
	s.mu.Unlock()
}

// take returns and clears the recorded errors.
func (s *errorSink) take() []error {
	if s.n.Load() == 0 {
		return nil
	}
	s.mu.Lock()
	errs := s.errs
	s.errs = nil
	s.n.Store(0)
	s.mu.Unlock()
	return errs
}
