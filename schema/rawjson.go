package schema

import (
	"context"

	"github.com/graftgql/graft/internal/schemadef"
)

// RawJSON is a JSON value as bytes that a resolver (or a batch resolver,
// one value per parent) returns instead of Go values: the body of an
// upstream answer or a JSON column, say. graft writes the selected fields
// straight from the bytes, checking each value against its GraphQL type
// as it goes, and skips the members that are not selected without
// decoding them: no Go structs, no reflection. A value that does not fit
// its type (a string where an Int is expected, malformed JSON) is a field
// error at its own path with code INTERNAL_SERVER_ERROR; null or a missing
// member at a non-null position is the error "Cannot return null for
// non-nullable field"; nulls propagate as for any field. Objects of
// interface and union types name their concrete type in a "__typename"
// member, or the one the type declares with RawTypeKey. A nil RawJSON is
// null.
//
// A field returning RawJSON declares its GraphQL type with OfType, e.g.
// OfType("[Post!]!"); the named types must be declared in the schema.
//
// RawJSON is json.RawMessage: a struct field of this type (a JSON column
// loaded with encoding/json, an upstream answer's member) decodes and
// encodes as the JSON it holds.
//
// Fields below a raw value are read from its members by field name, but
// for fields declared with RawFieldFunc or RawGroupFieldFunc, whose
// resolvers receive the object's raw bytes.
//
// An object that recurs in a response (the same bytes, a user every post
// points to) is written once per request and copied after that.
type RawJSON = schemadef.RawJSON

// RawTypeKey is an option of Interface and Union: the member of a RawJSON
// object that names its concrete object type, for upstream data that
// calls it "kind" or "type", say (default "__typename"). Its value must be
// the name of one of the possible types.
func RawTypeKey(key string) Option { return schemadef.RawTypeKey(key) }

// RawJSONElements splits a JSON array into its elements without decoding
// them, so that a batch resolver can hand each parent its part of one
// upstream answer.
func RawJSONElements(b RawJSON) ([]RawJSON, error) { return schemadef.RawJSONElements(b) }

// RawJSONMembers returns the members of a JSON object by key without
// decoding their values (of repeated keys the last counts), so that a
// batch resolver can hand each parent its member of one upstream answer.
func RawJSONMembers(b RawJSON) (map[string]RawJSON, error) { return schemadef.RawJSONMembers(b) }

// RawFieldFunc adds to obj a field whose resolver reads its parent as raw
// JSON. Under an object written from RawJSON (an upstream answer) the
// resolver receives the object's bytes as they are, and can read the
// members it needs with RawMember without decoding the rest; under a Go
// value of T, the value is encoded with encoding/json first. Options and
// the arguments A and result R as for FieldFunc.
func RawFieldFunc[T, A, R any](obj *ObjectType[T], name string, fn func(ctx context.Context, parent RawJSON, args A) (R, error), opts ...Option) {
	schemadef.RawFieldFunc(obj.impl, name, fn, opts...)
}

// RawFieldFuncNoArgs is RawFieldFunc for a field without arguments.
func RawFieldFuncNoArgs[T, R any](obj *ObjectType[T], name string, fn func(ctx context.Context, parent RawJSON) (R, error), opts ...Option) {
	schemadef.RawFieldFuncNoArgs(obj.impl, name, fn, opts...)
}

// RawGroupFieldFunc adds to obj a group-resolver field whose resolver reads its
// parents as raw JSON: called once for the objects of one RawJSON list
// (every post of an upstream's /posts answer), each parent's bytes as
// they are; under Go values of T, once per level as GroupFieldFunc, each
// parent encoded with encoding/json. Results and errors as for
// GroupFieldFunc.
func RawGroupFieldFunc[T, A, R any](obj *ObjectType[T], name string, fn func(ctx context.Context, parents []RawJSON, args A) ([]R, []error), opts ...Option) {
	schemadef.RawGroupFieldFunc(obj.impl, name, fn, opts...)
}

// RawGroupFieldFuncNoArgs is RawGroupFieldFunc for a field without
// arguments.
func RawGroupFieldFuncNoArgs[T, R any](obj *ObjectType[T], name string, fn func(ctx context.Context, parents []RawJSON) ([]R, []error), opts ...Option) {
	schemadef.RawGroupFieldFuncNoArgs(obj.impl, name, fn, opts...)
}

// RawMember returns the value of member key of the JSON object b, without
// decoding it or the other members: nil when b is not an object or lacks
// the member (of repeated keys the last counts). A resolver with a raw
// parent reads its parent's userId with it.
func RawMember(b RawJSON, key string) RawJSON { return schemadef.RawMember(b, key) }
