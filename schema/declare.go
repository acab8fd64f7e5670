package schema

import (
	"context"

	"github.com/graftgql/graft/internal/schemadef"
)

// ObjectType is an object type declared with Object. FieldFunc and
// FieldFuncNoArgs add resolver fields to it.
type ObjectType[T any] struct {
	impl *schemadef.ObjectType[T]
}

// Name returns the GraphQL name of the object type.
func (o *ObjectType[T]) Name() string { return o.impl.Name() }

// Object declares an object type whose fields are derived from the
// exported fields of the Go struct T. Field names are the lowerCamel form of
// the Go names with acronyms written as words, as GraphQL APIs spell them
// and gqlgen maps them ("ID" → "id", "BookID" → "bookId", "HTMLURL" →
// "htmlUrl", "UserIDs" → "userIds"); a `graphql:"name"` tag renames a field and `graphql:"-"`
// skips it. The tags `description:".."`, `deprecated:"reason"` and
// `type:"[Character]"` give a description, a deprecation reason and an
// explicit GraphQL type (for example to make a non-pointer field nullable).
// Fields of embedded structs are promoted. Options: Description,
// Implements.
func Object[T any](b *Builder, name string, opts ...Option) *ObjectType[T] {
	return &ObjectType[T]{impl: schemadef.Object[T](b.def(), name, opts...)}
}

// FieldFunc adds a resolver field with arguments to an object type. A is a
// struct whose exported fields are the arguments: tags `graphql:"name"`,
// `default:"<GraphQL literal>"`, `description:".."`, `deprecated:".."`
// and `validate:".."` (constraints checked before fn runs; see package
// validate); pointer fields are nullable arguments, other fields non-null. R is the
// result, mapped to a GraphQL type like a struct field (or given with the
// OfType option). A field named like one of T's struct fields replaces it.
// Options: Description, Deprecated, OfType, Cost, CostFn, Concurrent.
func FieldFunc[T, A, R any](obj *ObjectType[T], name string, fn func(context.Context, *T, A) (R, error), opts ...Option) {
	schemadef.FieldFunc(obj.impl, name, fn, opts...)
}

// FieldFuncNoArgs adds a resolver field without arguments to an object
// type. See FieldFunc.
func FieldFuncNoArgs[T, R any](obj *ObjectType[T], name string, fn func(context.Context, *T) (R, error), opts ...Option) {
	schemadef.FieldFuncNoArgs(obj.impl, name, fn, opts...)
}

// Query adds a field with arguments to the Query type. See FieldFunc for
// the argument struct A and the result R.
func Query[A, R any](b *Builder, name string, fn func(context.Context, A) (R, error), opts ...Option) {
	schemadef.Query(b.def(), name, fn, opts...)
}

// QueryNoArgs adds a field without arguments to the Query type.
func QueryNoArgs[R any](b *Builder, name string, fn func(context.Context) (R, error), opts ...Option) {
	schemadef.QueryNoArgs(b.def(), name, fn, opts...)
}

// Mutation adds a field with arguments to the Mutation type. Mutation
// fields run one after another, in the order of the operation.
func Mutation[A, R any](b *Builder, name string, fn func(context.Context, A) (R, error), opts ...Option) {
	schemadef.Mutation(b.def(), name, fn, opts...)
}

// MutationNoArgs adds a field without arguments to the Mutation type.
func MutationNoArgs[R any](b *Builder, name string, fn func(context.Context) (R, error), opts ...Option) {
	schemadef.MutationNoArgs(b.def(), name, fn, opts...)
}

// InterfaceType is an interface type declared with Interface. Its fields
// are declared with Field; object types join it with the Implements
// option.
type InterfaceType[I any] struct {
	impl *schemadef.InterfaceType[I]
}

// Name returns the GraphQL name of the interface.
func (it *InterfaceType[I]) Name() string { return it.impl.Name() }

// Field declares a field of the interface with its GraphQL type, for
// example "[Character]". Options: Description, Deprecated, Arg.
func (it *InterfaceType[I]) Field(name, gqlType string, opts ...Option) *InterfaceType[I] {
	it.impl.Field(name, gqlType, opts...)
	return it
}

// Interface declares an interface type. I is the Go type of the values
// of fields of this type, usually a Go interface that the implementing
// structs (or pointers to them) satisfy. The concrete object type of a
// value is the object type registered with Object for its Go dynamic type
// (*T or T), unless the ResolveTypeFunc option decides. Options:
// Description, ResolveTypeFunc, Implements (an interface implementing
// other interfaces; its implementations must declare those as well).
func Interface[I any](b *Builder, name string, opts ...Option) *InterfaceType[I] {
	return &InterfaceType[I]{impl: schemadef.Interface[I](b.def(), name, opts...)}
}

// Union declares a union of the named object types. U is the Go type of
// the values of fields of this type, usually a Go interface. The concrete
// object type is found as for Interface. Options: Description,
// ResolveTypeFunc.
func Union[U any](b *Builder, name string, members []string, opts ...Option) {
	schemadef.Union[U](b.def(), name, members, opts...)
}

// EnumValueDef declares one value of an enum: its GraphQL name, the Go
// value it stands for, and an optional description and deprecation reason
// (a non-empty Deprecated marks the value deprecated).
type EnumValueDef[E comparable] struct {
	Name        string
	Value       E
	Description string
	Deprecated  string
}

// Enum declares an enum type whose values are Go values of type E (usually
// a named string or integer type). Fields and arguments of Go type E are
// of this enum type; writing a Go value that was not declared is a field
// error. Options: Description.
func Enum[E comparable](b *Builder, name string, values []EnumValueDef[E], opts ...Option) {
	defs := make([]schemadef.EnumValueDef[E], len(values))
	for i, v := range values {
		defs[i] = schemadef.EnumValueDef[E](v)
	}
	schemadef.Enum(b.def(), name, defs, opts...)
}

// Input declares an input object type from the Go struct T, for use as an
// argument or inside other input objects. Its fields follow the rules of
// argument structs (see FieldFunc). Struct types used in arguments without
// Input are registered under their Go type name. Options: Description.
func Input[T any](b *Builder, name string, opts ...Option) {
	schemadef.Input[T](b.def(), name, opts...)
}

// Scalar declares a custom scalar whose Go type is T. T (or *T) must
// implement Marshaler and *T must implement Unmarshaler. Options:
// Description, SpecifiedBy.
func Scalar[T any](b *Builder, name string, opts ...Option) {
	schemadef.Scalar[T](b.def(), name, opts...)
}

// ID is the Go type of the GraphQL ID scalar, a string. Its JSON form is a
// string; as input it accepts a string or an integer.
type ID = schemadef.ID

// Marshaler is implemented by the Go type of a custom scalar: it returns
// the JSON-ready value (string, bool, a number, nil, or anything
// encoding/json can encode).
type Marshaler interface {
	MarshalGraphQL() (any, error)
}

// Unmarshaler is implemented by a pointer to the Go type of a custom
// scalar: it sets the value from a coerced input value (nil, bool, int64,
// float64, string, []any or map[string]any).
type Unmarshaler interface {
	UnmarshalGraphQL(v any) error
}

// The builder checks custom scalars against its own copies of Marshaler
// and Unmarshaler; these keep the method sets identical.
var (
	_ schemadef.Marshaler   = Marshaler(nil)
	_ schemadef.Unmarshaler = Unmarshaler(nil)
	_ Marshaler             = schemadef.Marshaler(nil)
	_ Unmarshaler           = schemadef.Unmarshaler(nil)
)
