package schema

import "github.com/graftgql/graft/internal/schemadef"

// Optional is the Go type of an argument or input-object field that tells
// an absent value from an explicit null, as an update mutation needs: a
// field left out keeps its value, a field given null is cleared. Its
// GraphQL type is the nullable type of T.
//
//	type UpdateUserInput struct {
//		ID  ID
//		Bio schema.Optional[string] // absent: keep; null: clear; "x": set
//	}
//
// Value is the value given when Set is true and Null is false; Set is true
// when the client gave the argument or field (as null or as a value); Null
// is true when the client gave null. Get returns the value and whether one
// was given. Its fields and method:
//
//	Value T    // the value given, when Set and not Null
//	Set   bool // the client gave the argument or field (null or a value)
//	Null  bool // the client gave null
//	func (o Optional[T]) Get() (T, bool) // Value, and whether a value (not null) was given
type Optional[T any] = schemadef.Optional[T]
