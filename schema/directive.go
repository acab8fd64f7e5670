package schema

import "github.com/graftgql/graft/internal/schemadef"

// Directive applies a directive written in SDL, such as
// `@key(fields: "id")` or `@custom`, to an object type, an interface or a
// resolver field (use OnField for fields derived from struct fields).
// Applied directives are printed in a federation subgraph's SDL (see
// package federation); the schema's own SDL and introspection leave them
// out. The text is parsed by Build, which reports a syntax error.
func Directive(sdl string) Option { return schemadef.Directive(sdl) }

// OnField applies Directive options to the named field of the object type
// or interface being declared, typically a field derived from a struct
// field: schema.Object[User](b, "User", schema.OnField("email",
// federation.External())). Other options given here are ignored.
func OnField(name string, opts ...Option) Option { return schemadef.OnField(name, opts...) }

// Extension marks an object type to be printed as `extend type` in a
// federation subgraph's SDL, for a type another subgraph owns.
func Extension() Option { return schemadef.Extension() }

// DirectiveDefinition declares a custom directive, for example
// `directive @custom on OBJECT`, printed in a federation subgraph's SDL.
func (b *Builder) DirectiveDefinition(sdl string) { b.def().DirectiveDefinition(sdl) }
