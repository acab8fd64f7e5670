package schemadef

import (
	"context"

	"github.com/vektah/gqlparser/v2/ast"
)

// DocumentDirectives runs directives that documents apply to their
// operation (QUERY, MUTATION, SUBSCRIPTION) or to their fields (FIELD),
// for an integration that gives such directives Go functions (package
// gqlgen, as gqlgen's generated code runs them). The executor calls
// Operation and Field only where the document applies a directive Names
// holds; everything else keeps the executor's own path.
type DocumentDirectives struct {
	// Names are the directives handled.
	Names map[string]bool
	// Operation wraps the execution of an operation whose definition
	// applies one of Names: next executes the operation's selection set
	// with the context it is given (the resolvers', and for a
	// subscription the subscription resolver's) and returns the data
	// written, as JSON (nil for a subscription, whose events are executed
	// later). Operation returns the data to write, next's or another JSON
	// value, or an error: the answer's data is then null (for a
	// subscription, the stream does not start) and the error is an error
	// of the operation, without a path.
	Operation func(ctx context.Context, op *ast.OperationDefinition, vars map[string]any, next func(context.Context) ([]byte, error)) ([]byte, error)
	// Field wraps the resolution of a field the document applies one of
	// Names to, outside the field's middleware and schema directives:
	// next resolves the field and returns its Go value; Field returns
	// next's value, another of the field's Go type, or an error (the field
	// is null with it). parent is the object the field is resolved on
	// (see exec.FieldCall.Parent), nil on a root type.
	Field func(ctx context.Context, field *ast.Field, parent any, vars map[string]any, next func(context.Context) (any, error)) (any, error)
}

// Applies reports whether ds holds a directive d handles.
func (d *DocumentDirectives) Applies(ds ast.DirectiveList) bool {
	for _, a := range ds {
		if d.Names[a.Name] {
			return true
		}
	}
	return false
}

// SetDocumentDirectives installs d in the schema being built; nil
// removes it.
func (b *Builder) SetDocumentDirectives(d *DocumentDirectives) { b.docDirectives = d }
