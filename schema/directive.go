package schema

import "github.com/graftgql/graft/internal/schemadef"

// DirectiveFunc implements an executable directive applied to a field: it
// receives the directive's argument values as applied in the schema,
// resolves the field by calling next, which returns the field's Go value
// (a string for a String field of Go type string, the *T a resolver
// returned; nil for null), and returns the value to write: next's, or a
// replacement of the field's Go type (`@upper` returns the upper-cased
// string). A value of another Go type fails the field with an internal
// error. It may instead return an error without calling next: the field
// is then null with that error.
type DirectiveFunc = schemadef.DirectiveFunc

// DirectiveDef declares a directive of the schema: its name, arguments in
// SDL ("role: Role!"), locations ("FIELD_DEFINITION", "OBJECT") and the
// implementation that wraps the fields it is applied to. Declared
// directives are printed in the SDL and listed by introspection.
type DirectiveDef = schemadef.DirectiveDef

// DeclareDirective adds a directive definition to the schema.
func (b *Builder) DeclareDirective(d DirectiveDef) { b.impl.DeclareDirective(d) }

// Directive applies a declared directive to an object type or a field,
// with its arguments in SDL ("role: ADMIN", or "" for none). The SDL shows
// it, and a directive with a Func wraps the field's resolution.
func Directive(name, args string) Option { return schemadef.Directive(name, args) }

// CacheControl is a cache hint on an object type, interface or field: an
// answer selecting it may be cached maxAge seconds, by shared caches
// (scope "PUBLIC" or "") or by the client alone ("PRIVATE"). It prints as
// @cacheControl(maxAge: 60, scope: PUBLIC) in the SDL; the router turns
// the operation's hints into the Cache-Control of GET answers.
func CacheControl(maxAge int, scope string) Option { return schemadef.CacheControl(maxAge, scope) }

// SubgraphDirective applies a directive written in SDL, such as
// `@key(fields: "id")` or `@custom`, to an object type, an interface or a
// resolver field (use OnField for fields derived from struct fields).
// Applied directives are printed in a federation subgraph's SDL (see
// package federation); the schema's own SDL and introspection leave them
// out. The text is parsed by Build, which reports a syntax error.
func SubgraphDirective(sdl string) Option { return schemadef.SubgraphDirective(sdl) }

// OnField applies directive options (Directive, CacheControl,
// SubgraphDirective) to the named field of the object type or interface
// being declared, typically a field derived from a struct field:
// schema.Object[User](b, "User", schema.OnField("name",
// schema.Directive("upper", ""))) or schema.OnField("email",
// federation.External()). Other options given here are ignored.
func OnField(name string, opts ...Option) Option { return schemadef.OnField(name, opts...) }

// Extension marks an object type to be printed as `extend type` in a
// federation subgraph's SDL, for a type another subgraph owns.
func Extension() Option { return schemadef.Extension() }

// DirectiveDefinition declares a custom directive, for example
// `directive @custom on OBJECT`, printed in a federation subgraph's SDL.
func (b *Builder) DirectiveDefinition(sdl string) { b.def().DirectiveDefinition(sdl) }
