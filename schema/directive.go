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
// is then null with that error. Its signature:
//
//	func(ctx context.Context, args map[string]any, next func(context.Context) (any, error)) (any, error)
type DirectiveFunc = schemadef.DirectiveFunc

// DirectiveDef declares a directive of the schema: its name, arguments in
// SDL ("role: Role!"), locations (LocationFieldDefinition, LocationObject) and the
// implementation that wraps the fields it is applied to. Declared
// directives are printed in the SDL and listed by introspection, unless
// Printing keeps them to a federation subgraph's SDL. Its fields:
//
//	Name        string
//	Description string
//	Args        string   // argument definitions in SDL, e.g. "role: Role!"
//	Locations   []string // where it may be applied, e.g. "FIELD_DEFINITION", "OBJECT"
//	Repeatable  bool
//	Func        DirectiveFunc     // wraps the fields it is applied to (every field of a type it is applied to)
//	Printing    DirectivePrinting // where it is printed (DirectiveEverywhere by default)
type DirectiveDef = schemadef.DirectiveDef

// DeclareDirective adds a directive definition to the schema: an
// executable directive, or (with Printing) one printed only in a
// federation subgraph's SDL. A later definition of the same name replaces
// an earlier one.
func (b *Builder) DeclareDirective(d DirectiveDef) { b.impl.DeclareDirective(d) }

// DirectivePrinting says where a declared directive, its definition and
// its applications, is printed: DirectiveEverywhere (the default),
// DirectiveSubgraphOnly or DirectiveLinked.
type DirectivePrinting = schemadef.DirectivePrinting

// The places a directive is printed.
const (
	// DirectiveEverywhere prints the directive in the schema's SDL, so
	// introspection lists it and its Func runs, and in a federation
	// subgraph's SDL.
	DirectiveEverywhere = schemadef.DirectiveEverywhere
	// DirectiveSubgraphOnly prints it only in a federation subgraph's SDL
	// (package federation), such as a custom `directive @custom on
	// OBJECT` for the gateway; the schema's SDL and introspection leave it
	// out, and its Func is not used.
	DirectiveSubgraphOnly = schemadef.DirectiveSubgraphOnly
	// DirectiveLinked prints its applications only in a subgraph's SDL
	// and its definition nowhere: it comes from a specification imported
	// with @link, as the federation directives do.
	DirectiveLinked = schemadef.DirectiveLinked
)

// Directive applies a declared directive to an object type, an interface
// or a field (OnField for a plain struct field), with its arguments in SDL
// ("role: ADMIN", or "" for none). It is printed where its declaration
// says (DirectiveDef.Printing), and a directive with a Func wraps the
// field's resolution. Build reports a directive that is not declared.
func Directive(name, args string) Option { return schemadef.Directive(name, args) }

// DirectiveLocation is a place where a directive may be applied: one of
// the Location constants. Build reports any other value, naming the
// directive.
type DirectiveLocation = schemadef.DirectiveLocation

// The directive locations (GraphQL, "Directive Locations").
const (
	LocationQuery                = schemadef.LocationQuery
	LocationMutation             = schemadef.LocationMutation
	LocationSubscription         = schemadef.LocationSubscription
	LocationField                = schemadef.LocationField
	LocationFragmentDefinition   = schemadef.LocationFragmentDefinition
	LocationFragmentSpread       = schemadef.LocationFragmentSpread
	LocationInlineFragment       = schemadef.LocationInlineFragment
	LocationVariableDefinition   = schemadef.LocationVariableDefinition
	LocationSchema               = schemadef.LocationSchema
	LocationScalar               = schemadef.LocationScalar
	LocationObject               = schemadef.LocationObject
	LocationFieldDefinition      = schemadef.LocationFieldDefinition
	LocationArgumentDefinition   = schemadef.LocationArgumentDefinition
	LocationInterface            = schemadef.LocationInterface
	LocationUnion                = schemadef.LocationUnion
	LocationEnum                 = schemadef.LocationEnum
	LocationEnumValue            = schemadef.LocationEnumValue
	LocationInputObject          = schemadef.LocationInputObject
	LocationInputFieldDefinition = schemadef.LocationInputFieldDefinition
)

// CacheScope says who may cache an answer: CachePublic (shared caches
// too), CachePrivate (the client alone), or "" (unsaid: public).
type CacheScope = schemadef.CacheScope

// The cache scopes.
const (
	CachePublic  = schemadef.CachePublic
	CachePrivate = schemadef.CachePrivate
)

// CacheControl is a cache hint on an object type, interface or field: an
// answer selecting it may be cached maxAge seconds, by shared caches
// (CachePublic or "") or by the client alone (CachePrivate). It prints as
// @cacheControl(maxAge: 60, scope: PUBLIC) in the SDL; the router turns
// the operation's hints into the Cache-Control of GET answers. Build
// reports any other scope (a misspelt one would otherwise let shared
// caches keep private answers), naming the type or field.
func CacheControl(maxAge int, scope CacheScope) Option { return schemadef.CacheControl(maxAge, scope) }

// OnField applies directive options (Directive, CacheControl) to the
// named field of the object type or interface
// being declared, typically a field derived from a struct field, and
// OfType to a struct field of an object type, as a type tag would (for a
// generic struct, whose tags cannot name the type):
// schema.Object[User](b, "User", schema.OnField("name",
// schema.Directive("upper", ""))) or schema.OnField("email",
// federation.External()). Other options given here are ignored.
func OnField(name string, opts ...Option) Option { return schemadef.OnField(name, opts...) }

// Extension marks an object type to be printed as `extend type` in a
// federation subgraph's SDL, for a type another subgraph owns.
func Extension() Option { return schemadef.Extension() }

// EnableIncrementalDelivery declares @defer and @stream as graphql-js 17
// defines them, so that documents may use them. A client that accepts
// incremental delivery (multipart/mixed with incrementalSpec=v0.2 or
// deferSpec=20220824, or a streaming transport) then gets deferred
// fragments and streamed list items in later payloads; a client that
// accepts only JSON gets the whole result at once. A field whose resolver
// returns a receive-only channel is a list whose items a @stream delivers
// as each arrives.
func (b *Builder) EnableIncrementalDelivery() { b.def().EnableIncrementalDelivery() }
