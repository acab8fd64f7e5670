package exec

import (
	"context"
	"sync"
	"sync/atomic"
)

// sinkKey is the context key of the errorSink of a resolver's context.
type sinkKey struct{}

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
	s, ok := ctx.Value(sinkKey{}).(*errorSink)
	if !ok || err == nil {
		return false
	}
	s.mu.Lock()
	s.errs = append(s.errs, err)
	s.n.Store(int32(len(s.errs)))
	s.mu.Unlock()
	return true
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
