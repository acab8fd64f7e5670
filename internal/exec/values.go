package exec

import (
	"github.com/graftgql/graft/internal/coerce"
	schema "github.com/graftgql/graft/internal/schemadef"
)

// newCoercer returns the input coercion of the engine's schema, with the
// custom scalars' own checks.
func newCoercer(e *Engine) *coerce.Coercer {
	return &coerce.Coercer{Schema: e.ast, Scalar: func(name string) func(any) error {
		if t := e.types[name]; t != nil && t.Kind == schema.ScalarKind {
			return t.CheckInput
		}
		return nil
	}}
}
