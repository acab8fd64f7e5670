package exec

import (
	"bytes"
	"errors"
	"runtime"
	"strconv"

	"github.com/graftgql/graft/internal/gqlerr"

	"github.com/vektah/gqlparser/v2/gqlerror"
)

// DefaultMaxResponseBytes is the default of Options.MaxResponseBytes, the
// bound on the response an execution writes. Nested
// lists multiply: seven levels of friends of friends in the Star Wars
// schema write 95 MB from a query of 100 bytes, and each further level
// multiplies that by about four. Once the bound is passed, the fields not
// yet written become null (or null their nearest nullable parent) without
// calling their resolvers, and the response carries one
// RESPONSE_TOO_LARGE error.
const DefaultMaxResponseBytes = 16 << 20

// errResponseTooLarge marks the error recorded when the response budget
// is spent, so it is recorded once.
var errResponseTooLarge = errors.New("response too large")

// overResponseBudget reports whether the response written so far passed
// the engine's MaxResponseBytes; the first time it does, it records the error at
// the current path of field f.
func (r *request) overResponseBudget(f *fieldPlan) bool {
	if len(r.buf) <= r.limit {
		return false
	}
	if r.budgetSpent() {
		return true
	}
	ge := &gqlerror.Error{
		Message:    "The response is larger than the limit of " + strconv.Itoa(r.e.maxResponse) + " bytes: select fewer fields or smaller lists.",
		Path:       r.currentPath(),
		Extensions: map[string]any{"code": gqlerr.ResponseTooLarge},
		Err:        errResponseTooLarge,
	}
	ge.Locations = r.locations(f)
	r.addError(ge)
	return true
}

// budgetSpent reports whether the response budget was spent: the error
// overResponseBudget records is among the errors.
func (r *request) budgetSpent() bool {
	for _, e := range r.errs {
		if e.Err == errResponseTooLarge {
			return true
		}
	}
	return false
}

// introStopped reports whether the introspection object that is the value
// of f must not be written: the response passed its budget, or the
// request's context is done. Introspection has no resolver to notice
// either, so its writer asks before each object; the error is recorded
// once.
func (r *request) introStopped(f *fieldPlan) bool {
	if len(r.buf) > r.limit {
		return r.overResponseBudget(f)
	}
	if !r.over() {
		return false
	}
	err := r.ctx.Err()
	for _, e := range r.errs {
		if e.Err == err {
			return true
		}
	}
	ge := r.fieldError(f, err)
	ge.Err = err
	r.addError(ge)
	return true
}

// maxCachedAnswer bounds one cached introspection answer: the standard
// introspection query of a schema of a few hundred types answers less.
// Larger answers, and answers with errors (response budget, timeout), are
// computed for each request under its own budget and context.
const maxCachedAnswer = 256 << 10

// maxCachedAnswers bounds the bytes of all the cached introspection
// answers an engine holds at once, whatever the number of documents the
// caller keeps: distinct introspection documents cannot make an engine
// hold more than this in answers.
const maxCachedAnswers = 8 << 20

// cacheAnswer keeps the response ans of the cacheable operation o when it
// has no error and fits both bounds. The bytes are given back to the
// engine's budget when o is garbage collected.
func (e *Engine) cacheAnswer(o *Operation, ans []byte) {
	if len(ans) > maxCachedAnswer || bytes.HasPrefix(ans, []byte(`{"errors"`)) || o.cached.Load() != nil {
		return
	}
	n := int64(len(ans))
	if e.cachedBytes.Add(n) > maxCachedAnswers {
		e.cachedBytes.Add(-n)
		return
	}
	c := bytes.Clone(ans)
	if !o.cached.CompareAndSwap(nil, &c) {
		e.cachedBytes.Add(-n)
		return
	}
	runtime.AddCleanup(o, func(n int64) { e.cachedBytes.Add(-n) }, n)
}
