package schemadef

import (
	"fmt"
	"github.com/graftgql/graft/internal/coerce"
	"math"
	"reflect"
	"strconv"
	"time"
	"unsafe"
)

// setter builds the setter storing coerced values of GraphQL type ref into
// Go values of type gt, checking that the two fit.
func (bc *build) setter(gt reflect.Type, ref *TypeRef) (setter, error) {
	ref = nullable(ref)
	if gt.Kind() == reflect.Pointer && bc.outByGo[gt] == nil {
		elem, err := bc.setter(gt.Elem(), ref)
		if err != nil {
			return nil, err
		}
		alloc := allocator(gt.Elem())
		return func(p unsafe.Pointer, v any) error {
			if v == nil {
				*(*unsafe.Pointer)(p) = nil
				return nil
			}
			q := alloc()
			if err := elem(q, v); err != nil {
				return err
			}
			*(*unsafe.Pointer)(p) = q
			return nil
		}, nil
	}
	if ref.Kind == ListRef {
		if gt.Kind() != reflect.Slice {
			return nil, fmt.Errorf("type %s does not fit Go type %s: a list argument needs a slice", ref, gt)
		}
		elem, err := bc.setter(gt.Elem(), ref.OfType)
		if err != nil {
			return nil, err
		}
		return listSetter(gt, elem), nil
	}
	t := ref.Named
	ti := bc.names[t.Name]
	misfit := fmt.Errorf("type %s does not fit Go type %s", t.Name, gt)
	var set setter
	switch {
	case ti.input != nil:
		if in := bc.inByGo[gt]; (in == nil || in.t != t) && !bc.sdlBindInput(t, gt) {
			return nil, misfit
		}
		c := bc.compiled(ti)
		set = func(p unsafe.Pointer, v any) error {
			m, ok := v.(map[string]any)
			if !ok {
				return fmt.Errorf("Expected type %q to be an object.", t.Name)
			}
			return setFields(p, c.fields, m)
		}
	case ti.enum != nil:
		if gt != ti.enum.goType && !bc.sdlBindEnum(ti, gt) {
			return nil, misfit
		}
		enumSet := ti.enum.set
		set = func(p unsafe.Pointer, v any) error {
			name, ok := v.(string)
			if !ok || !enumSet(p, name) {
				return fmt.Errorf("Value %s does not exist in %q enum.", coerce.Describe(v), t.Name)
			}
			return nil
		}
	case ti.scalar != nil:
		if gt != ti.scalar.goType {
			return nil, misfit
		}
		set = ti.scalar.read
	default:
		set = builtinSetter(t.Name, gt)
		if set == nil {
			return nil, misfit
		}
	}
	return func(p unsafe.Pointer, v any) error {
		if v == nil {
			return nil
		}
		return set(p, v)
	}, nil
}

// listSetter stores a list value into a slice of type gt. A single value
// is taken as a list of one, as input coercion specifies.
func listSetter(gt reflect.Type, elem setter) setter {
	return func(p unsafe.Pointer, v any) error {
		if v == nil {
			return nil
		}
		list, ok := v.([]any)
		if !ok {
			list = []any{v}
		}
		sv := reflect.MakeSlice(gt, len(list), len(list))
		for i, x := range list {
			if err := elem(sv.Index(i).Addr().UnsafePointer(), x); err != nil {
				return fmt.Errorf("[%d]: %w", i, err)
			}
		}
		reflect.NewAt(gt, p).Elem().Set(sv)
		return nil
	}
}

// allocator returns a function allocating a zero value of gt. Basic kinds
// use typed allocations of the same layout, avoiding reflection.
func allocator(gt reflect.Type) func() unsafe.Pointer {
	switch gt.Kind() {
	case reflect.String:
		return func() unsafe.Pointer { return unsafe.Pointer(new(string)) }
	case reflect.Bool, reflect.Int8, reflect.Uint8:
		return func() unsafe.Pointer { return unsafe.Pointer(new(uint8)) }
	case reflect.Int16, reflect.Uint16:
		return func() unsafe.Pointer { return unsafe.Pointer(new(uint16)) }
	case reflect.Int32, reflect.Uint32, reflect.Float32:
		return func() unsafe.Pointer { return unsafe.Pointer(new(uint32)) }
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint64, reflect.Float64:
		return func() unsafe.Pointer { return unsafe.Pointer(new(uint64)) }
	}
	if gt == timeType {
		return func() unsafe.Pointer { return unsafe.Pointer(new(time.Time)) }
	}
	return func() unsafe.Pointer { return reflect.New(gt).UnsafePointer() }
}

// builtinSetter returns the setter for a built-in scalar into a basic Go
// type, or nil when they do not fit.
func builtinSetter(name string, gt reflect.Type) setter {
	k := gt.Kind()
	switch name {
	case "String":
		if k == reflect.String {
			return func(p unsafe.Pointer, v any) error {
				s, ok := v.(string)
				if !ok {
					return fmt.Errorf("String cannot represent value: %s", coerce.Describe(v))
				}
				*(*string)(p) = s
				return nil
			}
		}
	case "ID":
		if k == reflect.String {
			return func(p unsafe.Pointer, v any) error {
				switch x := v.(type) {
				case string:
					*(*string)(p) = x
				case int64:
					*(*string)(p) = strconv.FormatInt(x, 10)
				default:
					return fmt.Errorf("ID cannot represent value: %s", coerce.Describe(v))
				}
				return nil
			}
		}
	case "Int":
		return intSetter(k)
	case "Float":
		switch k {
		case reflect.Float64, reflect.Float32:
			return func(p unsafe.Pointer, v any) error {
				var f float64
				switch x := v.(type) {
				case float64:
					f = x
				case int64:
					f = float64(x)
				case int:
					f = float64(x)
				default:
					return fmt.Errorf("Float cannot represent value: %s", coerce.Describe(v))
				}
				if k == reflect.Float32 {
					*(*float32)(p) = float32(f)
				} else {
					*(*float64)(p) = f
				}
				return nil
			}
		}
	case "Boolean":
		if k == reflect.Bool {
			return func(p unsafe.Pointer, v any) error {
				b, ok := v.(bool)
				if !ok {
					return fmt.Errorf("Boolean cannot represent value: %s", coerce.Describe(v))
				}
				*(*bool)(p) = b
				return nil
			}
		}
	case "DateTime":
		if gt == timeType {
			return dateTimeSet
		}
	case uploadScalar:
		if gt == uploadType {
			return uploadSet
		}
	}
	return nil
}

// dateTimeSet stores a DateTime input value, an RFC 3339 string, into a
// time.Time.
func dateTimeSet(p unsafe.Pointer, v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("DateTime cannot represent a non string value: %s", coerce.Describe(v))
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return fmt.Errorf("DateTime cannot represent %q: not an RFC 3339 date-time", s)
	}
	*(*time.Time)(p) = t
	return nil
}

// intSetter stores an Int into a Go integer of kind k, failing for values
// the kind cannot hold.
func intSetter(k reflect.Kind) setter {
	var lo, hi int64
	var store func(p unsafe.Pointer, n int64)
	switch k {
	case reflect.Int, reflect.Int64:
		lo, hi = math.MinInt64, math.MaxInt64
		store = func(p unsafe.Pointer, n int64) { *(*int64)(p) = n }
		if k == reflect.Int {
			store = func(p unsafe.Pointer, n int64) { *(*int)(p) = int(n) }
		}
	case reflect.Int32:
		lo, hi = math.MinInt32, math.MaxInt32
		store = func(p unsafe.Pointer, n int64) { *(*int32)(p) = int32(n) }
	case reflect.Int16:
		lo, hi = math.MinInt16, math.MaxInt16
		store = func(p unsafe.Pointer, n int64) { *(*int16)(p) = int16(n) }
	case reflect.Int8:
		lo, hi = math.MinInt8, math.MaxInt8
		store = func(p unsafe.Pointer, n int64) { *(*int8)(p) = int8(n) }
	case reflect.Uint, reflect.Uint64:
		lo, hi = 0, math.MaxInt64
		store = func(p unsafe.Pointer, n int64) { *(*uint64)(p) = uint64(n) }
		if k == reflect.Uint {
			store = func(p unsafe.Pointer, n int64) { *(*uint)(p) = uint(n) }
		}
	case reflect.Uint32:
		lo, hi = 0, math.MaxUint32
		store = func(p unsafe.Pointer, n int64) { *(*uint32)(p) = uint32(n) }
	case reflect.Uint16:
		lo, hi = 0, math.MaxUint16
		store = func(p unsafe.Pointer, n int64) { *(*uint16)(p) = uint16(n) }
	case reflect.Uint8:
		lo, hi = 0, math.MaxUint8
		store = func(p unsafe.Pointer, n int64) { *(*uint8)(p) = uint8(n) }
	default:
		return nil
	}
	return func(p unsafe.Pointer, v any) error {
		n, ok := coerce.Int64(v)
		if !ok {
			return fmt.Errorf("Int cannot represent value: %s", coerce.Describe(v))
		}
		if n < lo || n > hi {
			return fmt.Errorf("%d is out of range for this argument", n)
		}
		store(p, n)
		return nil
	}
}
