package exec

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/graftgql/graft/internal/gqlerr"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// errPanic is the error of a resolver that panicked.
var errPanic = errors.New("internal error")

// argumentError is a failure to convert a field's arguments.
type argumentError struct{ err error }

func (e argumentError) Error() string { return e.err.Error() }
func (e argumentError) Unwrap() error { return e.err }

// extensionsError is an error type that carries GraphQL error extensions.
type extensionsError interface {
	error
	Extensions() map[string]any
}

// internalError returns the generic error shown for internal failures.
func internalError(path ast.Path) *gqlerror.Error { return gqlerr.Internal(path) }

// fieldError converts err, raised while completing f, into a GraphQL error
// at the current path. An error that is or wraps a *gqlerror.Error keeps
// its message and extensions; so does any error with an Extensions method
// (graft.Error among them: its doc comment states this contract to users).
func (r *request) fieldError(f *fieldPlan, err error) *gqlerror.Error {
	path := r.currentPath()
	var ge *gqlerror.Error
	var ee extensionsError
	var ae argumentError
	var out *gqlerror.Error
	switch {
	case errors.Is(err, errPanic):
		out = internalError(path)
	case errors.Is(err, context.DeadlineExceeded):
		out = &gqlerror.Error{Message: "Request timed out.", Path: path, Extensions: map[string]any{"code": gqlerr.RequestTimeout}}
	case errors.Is(err, context.Canceled):
		out = &gqlerror.Error{Message: "Request cancelled.", Path: path, Extensions: map[string]any{"code": gqlerr.RequestCancelled}}
	case errors.As(err, &ge):
		out = &gqlerror.Error{Message: ge.Message, Path: path, Extensions: ge.Extensions, Err: err}
	case errors.As(err, &ee):
		out = &gqlerror.Error{Message: ee.Error(), Path: path, Extensions: ee.Extensions(), Err: err}
	case errors.As(err, &ae):
		out = &gqlerror.Error{
			Message:    fmt.Sprintf("Invalid arguments for field %s.%s: %s", f.parent, f.name, ae.err.Error()),
			Path:       path,
			Extensions: map[string]any{"code": gqlerr.BadUserInput},
			Err:        err,
		}
	default:
		out = &gqlerror.Error{Message: err.Error(), Path: path, Err: err}
	}
	out.Locations = r.locations(f)
	return out
}

// locations returns the locations of an error of field f: the field's,
// and when the document selects its response key more than once, each
// occurrence included under the request's variables, as graphql-js names
// every field node merged into the response key.
func (r *request) locations(f *fieldPlan) []gqlerror.Location {
	if f == nil || f.ast == nil || f.ast.Position == nil {
		return nil
	}
	if f.merged == nil {
		return []gqlerror.Location{{Line: f.ast.Position.Line, Column: f.ast.Position.Column}}
	}
	var out []gqlerror.Location
	for _, o := range f.merged {
		p := o.field.Position
		if p == nil || len(o.conds) > 0 && !included([][]condition{o.conds}, r.vars) {
			continue
		}
		l := gqlerror.Location{Line: p.Line, Column: p.Column}
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	if out == nil {
		return []gqlerror.Location{{Line: f.ast.Position.Line, Column: f.ast.Position.Column}}
	}
	return out
}

// resolverError converts an error returned by application code (a
// resolver or a type resolver). With MaskErrors, errors without GraphQL
// meaning are logged and replaced by a generic internal error.
func (r *request) resolverError(f *fieldPlan, err error) *gqlerror.Error {
	if r.e.mask && !public(err) {
		r.logFieldError("graphql: resolver error", "field", f.parent+"."+f.name, "error", err)
		err = errPanic
	}
	if r.e.present != nil {
		return r.e.presentError(r.ctx, err, r.fieldError(f, err)) // present.go
	}
	return r.fieldError(f, err)
}

// public reports whether err is meant for clients: a GraphQL error, an
// error with extensions, or one raised by the executor itself.
func public(err error) bool {
	var ge *gqlerror.Error
	var ee extensionsError
	var ae argumentError
	return errors.As(err, &ge) || errors.As(err, &ee) || errors.As(err, &ae) ||
		errors.Is(err, errPanic) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// nonNullError is the error for a null at a non-null position of f.
func (r *request) nonNullError(f *fieldPlan) *gqlerror.Error {
	err := &gqlerror.Error{
		Message: fmt.Sprintf("Cannot return null for non-nullable field %s.%s.", f.parent, f.name),
		Path:    r.currentPath(),
	}
	err.Locations = r.locations(f)
	return err
}

// addError records a field error; beyond the engine's MaxErrors, errors
// are dropped (their fields are still null).
func (r *request) addError(err *gqlerror.Error) {
	if len(r.errs) >= r.e.maxErrors {
		return
	}
	r.errs = append(r.errs, err)
}

// currentPath copies the current response path.
func (r *request) currentPath() ast.Path {
	path := make(ast.Path, len(r.path))
	for i, p := range r.path {
		if p.index >= 0 {
			path[i] = ast.PathIndex(p.index)
		} else {
			path[i] = ast.PathName(p.key)
		}
	}
	return path
}

// appendErrorList appends errs as a JSON array.
func appendErrorList(buf []byte, errs []*gqlerror.Error) []byte { return gqlerr.AppendList(buf, errs) }
