package schema

import (
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/graftgql/graft/internal/schemadef"
)

func init() {
	schemadef.Model = func(public any) *schemadef.Schema { return public.(*Schema).model }
	schemadef.BuilderOf = func(public any) *schemadef.Builder { return public.(*Builder).def() }
}

// Schema is a built, immutable GraphQL schema, made by Builder.Build (the
// zero value holds no schema). One *Schema may serve any number of routers
// and goroutines.
type Schema struct {
	model *schemadef.Schema
}

// AST returns the schema in gqlparser's form, loaded from the printed SDL:
// the types, fields and directives by name, for validating documents
// (gqlparser.LoadQuery) and for tools. Do not modify it.
func (s *Schema) AST() *ast.Schema {
	if s == nil || s.model == nil {
		return nil
	}
	return s.model.AST()
}

// SDL returns the schema printed in the GraphQL schema definition language.
// The output is deterministic: the same schema always prints the same text.
func (s *Schema) SDL() string {
	if s == nil || s.model == nil {
		return ""
	}
	return s.model.SDL()
}

// Builder collects type and field declarations and turns them into a
// *Schema with Build. Declarations may come in any order: a field may name
// a type that is declared later. The zero value is an empty Builder ready
// to use. A Builder is not safe for concurrent use.
type Builder struct {
	impl *schemadef.Builder
}

// New returns an empty Builder.
func New() *Builder {
	return &Builder{impl: schemadef.New()}
}

// def returns the builder's implementation, creating it for a zero Builder.
func (b *Builder) def() *schemadef.Builder {
	if b.impl == nil {
		b.impl = schemadef.New()
	}
	return b.impl
}

// Build checks the declarations and builds the schema. The error, when
// not nil, joins one *BuildError per mistake found.
func (b *Builder) Build() (*Schema, error) {
	m, err := b.def().Build()
	if err != nil {
		return nil, err
	}
	return &Schema{model: m}, nil
}

// BuildError is one mistake found by Builder.Build; find it with
// errors.As. Its fields Type and Field name the declaration at fault
// (Field is empty for a type-level mistake) and Message says what is wrong;
// in a schema-first builder (Builder.SDL) File, Line and Column give the
// position in the document. Error returns "schema: Type.field: message",
// with "file:line:column: " before the type when there is a position.
type BuildError = schemadef.BuildError
