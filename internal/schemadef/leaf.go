package schemadef

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"time"
	"unsafe"
)

// leafWriter is the signature of Output.WriteLeaf.
type leafWriter = func(buf []byte, p unsafe.Pointer) ([]byte, error)

// leafWriter returns the writer for a Go value of type gt at a position
// of the scalar or enum t, or nil when the Go type does not fit.
func (bc *build) leafWriter(t *Type, gt reflect.Type) leafWriter {
	ti := bc.names[t.Name]
	switch {
	case ti.enum != nil:
		if gt == ti.enum.goType || bc.sdlBindEnum(ti, gt) {
			return ti.enum.write
		}
		return nil
	case ti.scalar != nil:
		if gt == ti.scalar.goType {
			return ti.scalar.write
		}
		return nil
	}
	if w := bc.b.leafWriters[leafWriterKey{t.Name, gt}]; w != nil {
		return w
	}
	k := gt.Kind()
	switch t.Name {
	case "String":
		if k == reflect.String {
			return writeString
		}
	case "ID":
		if k == reflect.String {
			return writeString
		}
		if w := intWriter(k, false); w != nil {
			return func(buf []byte, p unsafe.Pointer) ([]byte, error) {
				buf, _ = w(append(buf, '"'), p)
				return append(buf, '"'), nil
			}
		}
	case "Int":
		return intWriter(k, true)
	case "Float":
		switch k {
		case reflect.Float64:
			return writeFloat64
		case reflect.Float32:
			return writeFloat32
		}
		return intWriter(k, false)
	case "Boolean":
		if k == reflect.Bool {
			return writeBool
		}
	case "DateTime":
		if gt == timeType {
			return writeTime
		}
	}
	return nil
}

// leafKind returns the LeafKind of the writer leafWriter returns for a Go
// value of type gt at a position of t.
func (bc *build) leafKind(t *Type, gt reflect.Type) LeafKind {
	if ti := bc.names[t.Name]; ti.enum != nil || ti.scalar != nil {
		return LeafOther
	}
	switch k := gt.Kind(); {
	case (t.Name == "String" || t.Name == "ID") && k == reflect.String:
		return LeafString
	case t.Name == "Int" && k == reflect.Int:
		return LeafInt
	case t.Name == "Boolean" && k == reflect.Bool:
		return LeafBool
	}
	return LeafOther
}

func writeString(buf []byte, p unsafe.Pointer) ([]byte, error) {
	return AppendJSONString(buf, *(*string)(p)), nil
}

func writeBool(buf []byte, p unsafe.Pointer) ([]byte, error) {
	if *(*bool)(p) {
		return append(buf, "true"...), nil
	}
	return append(buf, "false"...), nil
}

func writeFloat64(buf []byte, p unsafe.Pointer) ([]byte, error) {
	return appendFloat(buf, *(*float64)(p))
}

func writeFloat32(buf []byte, p unsafe.Pointer) ([]byte, error) {
	return appendFloat(buf, float64(*(*float32)(p)))
}

func writeTime(buf []byte, p unsafe.Pointer) ([]byte, error) {
	t := *(*time.Time)(p)
	if y := t.Year(); y < 0 || y > 9999 {
		return buf, fmt.Errorf("DateTime cannot represent year %d", y)
	}
	buf = append(buf, '"')
	buf = t.AppendFormat(buf, time.RFC3339Nano)
	return append(buf, '"'), nil
}

var errIntRange = errors.New("Int cannot represent non 32-bit signed integer value")

func int32Range(buf []byte, v int64) ([]byte, error) {
	if v < math.MinInt32 || v > math.MaxInt32 {
		return buf, fmt.Errorf("%w: %d", errIntRange, v)
	}
	return strconv.AppendInt(buf, v, 10), nil
}

func uint32Range(buf []byte, v uint64) ([]byte, error) {
	if v > math.MaxInt32 {
		return buf, fmt.Errorf("%w: %d", errIntRange, v)
	}
	return strconv.AppendUint(buf, v, 10), nil
}

// intWriter returns the writer of an integer kind; checked writers fail
// for values outside the 32-bit signed range of GraphQL's Int.
func intWriter(k reflect.Kind, checked bool) leafWriter {
	if checked {
		switch k {
		case reflect.Int:
			return func(buf []byte, p unsafe.Pointer) ([]byte, error) { return int32Range(buf, int64(*(*int)(p))) }
		case reflect.Int64:
			return func(buf []byte, p unsafe.Pointer) ([]byte, error) { return int32Range(buf, *(*int64)(p)) }
		case reflect.Uint:
			return func(buf []byte, p unsafe.Pointer) ([]byte, error) { return uint32Range(buf, uint64(*(*uint)(p))) }
		case reflect.Uint32:
			return func(buf []byte, p unsafe.Pointer) ([]byte, error) { return uint32Range(buf, uint64(*(*uint32)(p))) }
		case reflect.Uint64:
			return func(buf []byte, p unsafe.Pointer) ([]byte, error) { return uint32Range(buf, *(*uint64)(p)) }
		}
	}
	switch k {
	case reflect.Int:
		return func(buf []byte, p unsafe.Pointer) ([]byte, error) {
			return strconv.AppendInt(buf, int64(*(*int)(p)), 10), nil
		}
	case reflect.Int8:
		return func(buf []byte, p unsafe.Pointer) ([]byte, error) {
			return strconv.AppendInt(buf, int64(*(*int8)(p)), 10), nil
		}
	case reflect.Int16:
		return func(buf []byte, p unsafe.Pointer) ([]byte, error) {
			return strconv.AppendInt(buf, int64(*(*int16)(p)), 10), nil
		}
	case reflect.Int32:
		return func(buf []byte, p unsafe.Pointer) ([]byte, error) {
			return strconv.AppendInt(buf, int64(*(*int32)(p)), 10), nil
		}
	case reflect.Int64:
		return func(buf []byte, p unsafe.Pointer) ([]byte, error) {
			return strconv.AppendInt(buf, *(*int64)(p), 10), nil
		}
	case reflect.Uint:
		return func(buf []byte, p unsafe.Pointer) ([]byte, error) {
			return strconv.AppendUint(buf, uint64(*(*uint)(p)), 10), nil
		}
	case reflect.Uint8:
		return func(buf []byte, p unsafe.Pointer) ([]byte, error) {
			return strconv.AppendUint(buf, uint64(*(*uint8)(p)), 10), nil
		}
	case reflect.Uint16:
		return func(buf []byte, p unsafe.Pointer) ([]byte, error) {
			return strconv.AppendUint(buf, uint64(*(*uint16)(p)), 10), nil
		}
	case reflect.Uint32:
		return func(buf []byte, p unsafe.Pointer) ([]byte, error) {
			return strconv.AppendUint(buf, uint64(*(*uint32)(p)), 10), nil
		}
	case reflect.Uint64:
		return func(buf []byte, p unsafe.Pointer) ([]byte, error) {
			return strconv.AppendUint(buf, *(*uint64)(p), 10), nil
		}
	}
	return nil
}
