package exec

import (
	"context"

	"github.com/vektah/gqlparser/v2/gqlerror"
)

// presentError runs the engine's error presenter on ge, the error err
// became; a nil answer or a panic keeps ge.
func (e *Engine) presentError(ctx context.Context, err error, ge *gqlerror.Error) (out *gqlerror.Error) {
	defer func() {
		if v := recover(); v != nil {
			e.logger.ErrorContext(ctx, "graphql: error presenter panicked", "panic", v)
			out = ge
		}
	}()
	if p := e.present(ctx, err, ge); p != nil {
		return p
	}
	return ge
}

// panicked hands a recovered panic to the engine's OnPanic hook, which
// must not take the request down either.
func (e *Engine) panicked(ctx context.Context, v any, stack []byte) {
	if e.onPanic == nil {
		return
	}
	defer func() {
		if p := recover(); p != nil {
			e.logger.ErrorContext(ctx, "graphql: panic hook panicked", "panic", p)
		}
	}()
	e.onPanic(ctx, v, stack)
}
