package exec

import (
	"errors"
	"github.com/graftgql/graft/internal/gqlerr"
	"strconv"

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
	if len(r.buf) <= r.e.maxResponse {
		return false
	}
	for _, e := range r.errs {
		if e.Err == errResponseTooLarge {
			return true
		}
	}
	ge := &gqlerror.Error{
		Message:    "The response is larger than the limit of " + strconv.Itoa(r.e.maxResponse) + " bytes: select fewer fields or smaller lists.",
		Path:       r.currentPath(),
		Extensions: map[string]any{"code": gqlerr.ResponseTooLarge},
		Err:        errResponseTooLarge,
	}
	if f != nil && f.ast != nil && f.ast.Position != nil {
		ge.Locations = []gqlerror.Location{{Line: f.ast.Position.Line, Column: f.ast.Position.Column}}
	}
	r.addError(ge)
	return true
}
