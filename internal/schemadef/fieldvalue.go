package schemadef

import (
	"fmt"
	"reflect"
	"unsafe"
)

// This file converts a field's resolved value between the executor's form
// (a pointer described by Field.Out) and a Go value, for field middleware
// and executable directives that read or replace it.

// valueType is the Go type of a field's value as middleware sees it: the
// struct field's type or the resolver's result type. direct is set when
// the executor's pointer is the Go pointer value itself (see Resolve).
type valueType struct {
	t      reflect.Type
	direct bool
}

// Value returns the field's Go value from the pointer its resolver
// returned (or the struct field's address): a string for a String field
// of Go type string, the *T a resolver returned, and so on. A nil pointer
// (null) gives nil.
func (f *Field) Value(p unsafe.Pointer) any {
	if p == nil || f.value.t == nil {
		return nil
	}
	if f.value.direct {
		return reflect.NewAt(f.value.t.Elem(), p).Interface()
	}
	return reflect.NewAt(f.value.t, p).Elem().Interface()
}

// FromValue is the reverse of Value: it returns the pointer the executor
// writes for v, nil for a nil v (null). v must be of the field's Go type,
// assignable to it (an interface type), or of the same basic kind (a
// string for a field of a named string type); otherwise FromValue returns
// an error and the field must fail.
func (f *Field) FromValue(v any) (unsafe.Pointer, error) {
	if v == nil {
		return nil, nil
	}
	t := f.value.t
	if t == nil {
		return nil, fmt.Errorf("field %s has no Go type", f.Name)
	}
	rv := reflect.ValueOf(v)
	if f.value.direct && rv.Type() == t {
		return rv.UnsafePointer(), nil
	}
	switch {
	case rv.Type().AssignableTo(t):
	case rv.Kind() == t.Kind() && basicKind(t.Kind()) && rv.Type().ConvertibleTo(t):
		rv = rv.Convert(t)
	default:
		return nil, fmt.Errorf("a value of type %s for field %s of Go type %s", rv.Type(), f.Name, t)
	}
	if f.value.direct {
		return rv.Convert(t).UnsafePointer(), nil // an identical pointer type
	}
	cell := reflect.New(t)
	cell.Elem().Set(rv)
	return cell.UnsafePointer(), nil
}

// basicKind reports whether k is a boolean, number or string kind, whose
// named types convert to one another without loss.
func basicKind(k reflect.Kind) bool {
	return k >= reflect.Bool && k <= reflect.Complex128 || k == reflect.String
}

// ValueSize is the size in bytes of the field's Go value (of a
// Subscription field: of one event).
func (f *Field) ValueSize() uintptr {
	if f.value.t == nil {
		return 0
	}
	return f.value.t.Size()
}
