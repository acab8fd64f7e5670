package schemadef

import (
	"github.com/vektah/gqlparser/v2/ast"
)

// Schema is a built, immutable GraphQL schema: the model the executor runs
// and the gqlparser form the validator checks documents against.
type Schema struct {
	Query        *Type // never nil
	Mutation     *Type // nil when the schema has no mutations
	Subscription *Type // nil when the schema has no subscriptions

	// Types lists every named type, built-in scalars included, sorted by
	// name.
	Types []*Type

	// Directives are the directives the schema declares, by name.
	Directives []*DirectiveDef

	// DocumentDirectives, when set, runs directives documents apply to
	// their operation or fields.
	DocumentDirectives *DocumentDirectives

	typeIndex map[string]*Type
	ast       *ast.Schema
	sdl       string
}

// Type returns the named type, or nil.
func (s *Schema) Type(name string) *Type { return s.typeIndex[name] }

// AST returns the schema in gqlparser's form, loaded from the printed SDL.
// Documents are validated against it and introspection reads it.
func (s *Schema) AST() *ast.Schema { return s.ast }

// SDL returns the schema printed in the GraphQL schema definition language.
// The output is deterministic: the same schema always prints the same text.
func (s *Schema) SDL() string { return s.sdl }
