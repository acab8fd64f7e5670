package schemadef

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"time"
	"unsafe"
)

// ID is the Go type of the GraphQL ID scalar. Its JSON form is a string;
// as input it accepts a string or an integer.
type ID string

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

type scalarDecl struct {
	name   string
	goType reflect.Type
	opts   options
	write  func(buf []byte, p unsafe.Pointer) ([]byte, error)
	read   func(p unsafe.Pointer, v any) error
	check  func(v any) error
}

// Scalar declares a custom scalar whose Go type is T. T (or *T) must
// implement Marshaler and *T must implement Unmarshaler. Options:
// Description, SpecifiedBy.
func Scalar[T any](b *Builder, name string, opts ...Option) {
	d := &scalarDecl{name: name, goType: reflect.TypeFor[T](), opts: collect(opts)}
	if _, ok := any((*T)(nil)).(Marshaler); !ok {
		b.errorf(name, "", "Go type %s does not implement schema.Marshaler", d.goType)
	}
	if _, ok := any((*T)(nil)).(Unmarshaler); !ok {
		b.errorf(name, "", "Go type *%s does not implement schema.Unmarshaler", d.goType)
	}
	d.write = func(buf []byte, p unsafe.Pointer) (out []byte, err error) {
		defer recoverWrite(name, buf, &out, &err)
		m, ok := any((*T)(p)).(Marshaler)
		if !ok {
			return buf, fmt.Errorf("scalar %s cannot be marshaled", name)
		}
		v, err := m.MarshalGraphQL()
		if err != nil {
			return buf, err
		}
		return appendAnyJSON(buf, v)
	}
	d.read = func(p unsafe.Pointer, v any) (err error) {
		defer recoverRead(name, &err)
		u, ok := any((*T)(p)).(Unmarshaler)
		if !ok {
			return fmt.Errorf("scalar %s cannot be unmarshaled", name)
		}
		return u.UnmarshalGraphQL(v)
	}
	d.check = func(v any) error {
		var x T
		return d.read(unsafe.Pointer(&x), v)
	}
	b.scalars = append(b.scalars, d)
}

// ScalarCodec is the implementation of a scalar declared with ScalarFuncs:
// Append appends the JSON form of a Go value, Parse converts a coerced
// input value (nil, bool, int64, float64, string, []any or
// map[string]any).
type ScalarCodec[T any] struct {
	Append func(buf []byte, v *T) ([]byte, error)
	Parse  func(v any) (T, error)
}

// ScalarFuncs declares a scalar whose Go type T need not carry methods
// (an interface type such as any, a type of another package): codec
// writes and reads its values. Options: Description, SpecifiedBy. A Go
// interface type maps to the nullable scalar.
func ScalarFuncs[T any](b *Builder, name string, codec ScalarCodec[T], opts ...Option) {
	d := &scalarDecl{name: name, goType: reflect.TypeFor[T](), opts: collect(opts)}
	if codec.Append == nil || codec.Parse == nil {
		b.errorf(name, "", "the scalar needs both Append and Parse")
		return
	}
	d.write = func(buf []byte, p unsafe.Pointer) (out []byte, err error) {
		defer recoverWrite(name, buf, &out, &err)
		return codec.Append(buf, (*T)(p))
	}
	d.read = func(p unsafe.Pointer, v any) (err error) {
		defer recoverRead(name, &err)
		x, err := codec.Parse(v)
		if err != nil {
			return err
		}
		*(*T)(p) = x
		return nil
	}
	d.check = func(v any) (err error) {
		defer recoverRead(name, &err)
		_, err = codec.Parse(v)
		return err
	}
	b.scalars = append(b.scalars, d)
}

// recoverWrite turns a panic while a scalar is written into a field error,
// leaving the buffer as it was.
func recoverWrite(name string, buf []byte, out *[]byte, err *error) {
	if p := recover(); p != nil {
		*out, *err = buf, fmt.Errorf("%s cannot represent the value: %v", name, p)
	}
}

// recoverRead turns a panic while a scalar input is parsed into an error.
func recoverRead(name string, err *error) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("%s cannot parse the value: %v", name, p)
	}
}

// checkDateTime checks a DateTime input value.
func checkDateTime(v any) error {
	var t time.Time
	return dateTimeSet(unsafe.Pointer(&t), v)
}

// appendAnyJSON appends the JSON form of a marshaled scalar value.
func appendAnyJSON(buf []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(buf, "null"...), nil
	case string:
		return AppendJSONString(buf, x), nil
	case bool:
		return strconv.AppendBool(buf, x), nil
	case int:
		return strconv.AppendInt(buf, int64(x), 10), nil
	case int32:
		return strconv.AppendInt(buf, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(buf, x, 10), nil
	case float64:
		return appendFloat(buf, x)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return buf, err
	}
	return append(buf, data...), nil
}

// appendFloat appends f as a JSON number the way encoding/json does; NaN
// and infinities have no JSON form and are an error.
func appendFloat(buf []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return buf, fmt.Errorf("Float cannot represent non-numeric value: %v", f)
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	buf = strconv.AppendFloat(buf, f, format, -1, 64)
	if format == 'e' {
		// Clean up e-09 to e-9, as encoding/json does.
		n := len(buf)
		if n >= 4 && buf[n-4] == 'e' && buf[n-3] == '-' && buf[n-2] == '0' {
			buf[n-2] = buf[n-1]
			buf = buf[:n-1]
		}
	}
	return buf, nil
}
