package schema

import "github.com/graftgql/graft/internal/schemadef"

// RawJSON is a JSON value as bytes that a resolver (or a batch resolver,
// one value per parent) returns instead of Go values: the body of an
// upstream answer or a JSON column, say. graft writes the selected fields
// straight from the bytes, checking each value against its GraphQL type
// as it goes, and skips the members that are not selected without
// decoding them: no Go structs, no reflection. A value that does not fit
// its type (a string where an Int is expected, null at a non-null
// position, malformed JSON) is a field error at its own path with code
// INTERNAL_SERVER_ERROR, and nulls propagate as for any field. Objects of
// interface and union types name their concrete type in a "__typename"
// member, or the one the type declares with RawTypeKey. A nil RawJSON is
// null.
//
// A field returning RawJSON declares its GraphQL type with OfType, e.g.
// OfType("[Post!]!"); the named types must be declared in the schema.
// Fields below a raw value are read from its members by field name;
// their resolvers are not called.
//
// RawJSON is json.RawMessage: a struct field of this type (a JSON column
// loaded with encoding/json, an upstream answer's member) decodes and
// encodes as the JSON it holds.
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
