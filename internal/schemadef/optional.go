package schemadef

import "reflect"

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
// Use it as a field of an argument struct or of an input object struct.
type Optional[T any] struct {
	// Value is the value given, when Set is true and Null is false.
	Value T
	// Set is true when the client gave the argument or field, as null
	// or as a value.
	Set bool
	// Null is true when the client gave null.
	Null bool
}

// Get returns the value and whether one was given (not absent, not null).
func (o Optional[T]) Get() (T, bool) { return o.Value, o.Set && !o.Null }

func (Optional[T]) optionalElem() reflect.Type { return reflect.TypeFor[T]() }

// optional is implemented by every Optional type.
type optional interface{ optionalElem() reflect.Type }

var optionalType = reflect.TypeFor[optional]()

// optionalElem returns T when gt is an Optional[T].
func optionalElem(gt reflect.Type) (reflect.Type, bool) {
	if gt.Kind() != reflect.Struct || !gt.Implements(optionalType) {
		return nil, false
	}
	return reflect.Zero(gt).Interface().(optional).optionalElem(), true
}
