package schema

import (
	"context"

	"github.com/graftgql/graft/internal/schemadef"
)

// Selection is what a query selected below the field a resolver
// resolves: per possible object type, the fields in response order, with
// fragments and inline fragments expanded and @skip and @include applied.
// A resolver reads it with SelectionFrom, to fetch only the columns asked
// for or to prime a loader for the objects it returns.
//
// Types lists the object types the selection applies to (the field's type
// when it is an object, its possible types when it is an interface or
// union); Fields returns the fields selected for one of them; Has reports
// whether a field of that name is selected for any type. Its methods:
//
//	Types() []string
//	Fields(typeName string) []SelectedField
//	Has(name string) bool
type Selection = schemadef.Selection

// SelectedField is one field of a Selection: its name, its response key
// (Alias), its coerced arguments with defaults applied (nil, bool, int64,
// float64, string, []any, map[string]any; enums by name) and the selection
// below it (nil for scalars and enums). Its fields:
//
//	Name      string         // the field's name
//	Alias     string         // the response key: the alias, or the name
//	Args      map[string]any // coerced arguments, defaults applied
//	Selection Selection      // what is selected below it, or nil
type SelectedField = schemadef.SelectedField

// SelectionFrom returns the selection below the field whose resolver
// received ctx, or nil when the field has no sub-selection (a scalar or
// enum) or ctx is not a resolver's context.
func SelectionFrom(ctx context.Context) Selection { return schemadef.SelectionFrom(ctx) }
