package exec

// maxLoggedErrors bounds the resolver errors and panics one execution
// logs. A document of a few kilobytes can make thousands of fields fail
// (the response keeps only MaxErrors of them); logging each would let one
// request write tens of thousands of lines. The first maxLoggedErrors are
// logged in full, the rest only counted in one summary line at the end.
const maxLoggedErrors = 10

// logFieldError logs a failure of a field (an error masked by MaskErrors,
// a resolver panic) unless the request already logged maxLoggedErrors. It
// may be called from the goroutines of concurrent resolvers.
func (r *request) logFieldError(msg string, args ...any) {
	if r.logged.Add(1) > maxLoggedErrors {
		return
	}
	r.e.logger.ErrorContext(r.ctx, msg, args...)
}

// logSuppressed writes the summary line for the failures logFieldError
// did not log, if any.
func (r *request) logSuppressed() {
	if n := r.logged.Load(); n > maxLoggedErrors {
		r.e.logger.ErrorContext(r.ctx, "graphql: more field errors were not logged",
			"logged", maxLoggedErrors, "notLogged", n-maxLoggedErrors)
	}
}
