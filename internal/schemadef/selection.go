package schemadef

import (
	"context"

	"github.com/graftgql/graft/internal/lookahead"
)

// Selection is what a query selected below the field a resolver
// resolves: per possible object type, the fields in response order, with
// fragments and inline fragments expanded and @skip and @include applied.
// A resolver reads it with SelectionFrom, to fetch only the columns asked
// for or to prime a loader for the objects it returns.
type Selection interface {
	// Types lists the object types the selection applies to: the field's
	// type when it is an object, its possible types when it is an
	// interface or union.
	Types() []string
	// Fields returns the fields selected for the object type typeName
	// (one of Types).
	Fields(typeName string) []SelectedField
	// Has reports whether a field of that name is selected for any type.
	Has(name string) bool
}

// SelectedField is one field of a Selection.
type SelectedField struct {
	Name  string // the field's name
	Alias string // the response key: the alias, or the name
	// Args are the coerced argument values, defaults applied (nil, bool,
	// int64, float64, string, []any, map[string]any; enums by name).
	Args map[string]any
	// Selection is the selection below the field; nil for scalars and
	// enums.
	Selection Selection
}

// SelectionFrom returns the selection below the field whose resolver
// received ctx, or nil when the field has no sub-selection (a scalar or
// enum) or ctx is not a resolver's context.
func SelectionFrom(ctx context.Context) Selection {
	s, _ := ctx.Value(lookahead.Key).(Selection)
	return s
}
