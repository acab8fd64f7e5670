package schemadef

import (
	"fmt"
	"reflect"
	"unsafe"
)

// EnumValueDef declares one value of an enum: its GraphQL name, the Go
// value it stands for, and an optional description and deprecation reason
// (a non-empty Deprecated marks the value deprecated).
type EnumValueDef[E comparable] struct {
	Name        string
	Value       E
	Description string
	Deprecated  string
}

type enumDecl struct {
	name   string
	goType reflect.Type
	opts   options
	values []*EnumValue

	// write appends the JSON name of the Go value at p.
	write func(buf []byte, p unsafe.Pointer) ([]byte, error)
	// set stores the Go value of the named enum value at p.
	set func(p unsafe.Pointer, name string) bool
}

// Enum declares an enum type whose values are Go values of type E (usually
// a named string or integer type). Fields and arguments of Go type E are
// of this enum type; writing a Go value that was not declared is a field
// error. Options: Description.
func Enum[E comparable](b *Builder, name string, values []EnumValueDef[E], opts ...Option) {
	names := make([]string, len(values))
	goValues := make([]E, len(values))
	d := &enumDecl{name: name, goType: reflect.TypeFor[E](), opts: collect(opts)}
	for i, v := range values {
		names[i], goValues[i] = v.Name, v.Value
		d.values = append(d.values, &EnumValue{
			Name:              v.Name,
			Description:       v.Description,
			Deprecated:        v.Deprecated != "",
			DeprecationReason: v.Deprecated,
		})
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = `"` + n + `"`
	}
	d.write = func(buf []byte, p unsafe.Pointer) ([]byte, error) {
		v := *(*E)(p)
		for i := range goValues {
			if goValues[i] == v {
				return append(buf, quoted[i]...), nil
			}
		}
		return buf, fmt.Errorf("enum %s cannot represent value %v", name, v)
	}
	if len(values) > 8 {
		byValue := make(map[E]string, len(values))
		for i := len(values) - 1; i >= 0; i-- {
			byValue[goValues[i]] = quoted[i]
		}
		d.write = func(buf []byte, p unsafe.Pointer) ([]byte, error) {
			v := *(*E)(p)
			if q, ok := byValue[v]; ok {
				return append(buf, q...), nil
			}
			return buf, fmt.Errorf("enum %s cannot represent value %v", name, v)
		}
	}
	d.set = func(p unsafe.Pointer, n string) bool {
		for i := range names {
			if names[i] == n {
				*(*E)(p) = goValues[i]
				return true
			}
		}
		return false
	}
	b.enums = append(b.enums, d)
}
