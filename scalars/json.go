package scalars

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/graftgql/graft/internal/coerce"
	"github.com/graftgql/graft/internal/schemadef"
)

// JSON is the Go type of the JSON scalar: any JSON value. It is any, so
// a field or argument of Go type any is a JSON (nullable: nil is null)
// once the scalar is declared. As input it holds what the client sent:
// nil, bool, int64, float64, string, []any or map[string]any, nested at
// most 256 levels deep (deeper input is refused, as it could not be
// written back). As output
// it may hold those or anything encoding/json encodes; a value that does
// not encode (a channel, NaN) is a field error.
type JSON = any

// JSONObject is the Go type of the JSONObject scalar: a JSON object. Its
// input must be an object. A nil JSONObject cannot be written (a field
// error): use *JSONObject for a nullable field.
type JSONObject map[string]any

// maxJSONDepth bounds the nesting written by the JSON scalars, so that a
// cyclic Go value fails instead of recursing without end, and the
// nesting they accept as input, so that what they accept they can write.
const maxJSONDepth = 256

func appendJSON(buf []byte, v *JSON) ([]byte, error) {
	return appendValue(buf, "JSON", *v, 0)
}

func parseJSON(v any) (JSON, error) {
	if !shallow(v, 0) {
		return nil, errTooDeep("JSON")
	}
	return v, nil
}

// shallow reports whether input v nests no deeper than appendValue
// writes, so that every value the JSON scalars accept can be written
// back.
func shallow(v any, depth int) bool {
	if depth > maxJSONDepth {
		return false
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if !shallow(e, depth+1) {
				return false
			}
		}
	case map[string]any:
		for _, e := range x {
			if !shallow(e, depth+1) {
				return false
			}
		}
	}
	return true
}

func errTooDeep(scalar string) error {
	return fmt.Errorf("%s cannot represent a value nested deeper than %d levels", scalar, maxJSONDepth)
}

func appendJSONObject(buf []byte, v *JSONObject) ([]byte, error) {
	if *v == nil {
		return buf, fmt.Errorf("JSONObject cannot represent a nil map")
	}
	return appendValue(buf, "JSONObject", map[string]any(*v), 0)
}

func parseJSONObject(v any) (JSONObject, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("JSONObject cannot represent a non-object value: %s", coerce.Describe(v))
	}
	if !shallow(m, 0) {
		return nil, errTooDeep("JSONObject")
	}
	return JSONObject(m), nil
}

// appendValue appends v as JSON: the shapes decoded input takes are
// written directly (object members in key order), anything else through
// encoding/json.
func appendValue(buf []byte, scalar string, v any, depth int) ([]byte, error) {
	if depth > maxJSONDepth {
		return buf, errTooDeep(scalar)
	}
	switch x := v.(type) {
	case nil:
		return append(buf, "null"...), nil
	case string:
		return schemadef.AppendJSONString(buf, x), nil
	case bool:
		return strconv.AppendBool(buf, x), nil
	case int:
		return strconv.AppendInt(buf, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(buf, x, 10), nil
	case int32:
		return strconv.AppendInt(buf, int64(x), 10), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return buf, fmt.Errorf("%s cannot represent the number %v", scalar, x)
		}
		data, _ := json.Marshal(x)
		return append(buf, data...), nil
	case []any:
		buf = append(buf, '[')
		for i, e := range x {
			if i > 0 {
				buf = append(buf, ',')
			}
			var err error
			if buf, err = appendValue(buf, scalar, e, depth+1); err != nil {
				return buf, err
			}
		}
		return append(buf, ']'), nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		buf = append(buf, '{')
		for i, k := range keys {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(schemadef.AppendJSONString(buf, k), ':')
			var err error
			if buf, err = appendValue(buf, scalar, x[k], depth+1); err != nil {
				return buf, err
			}
		}
		return append(buf, '}'), nil
	case JSONObject:
		return appendValue(buf, scalar, map[string]any(x), depth)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return buf, fmt.Errorf("%s cannot represent a %T: %w", scalar, v, err)
	}
	return append(buf, data...), nil
}
