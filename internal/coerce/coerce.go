// Package coerce is graft's one implementation of GraphQL input coercion
// (spec section 5.6 "Input Coercion" and 6.1.2 "Coercing Variable
// Values"): request variables decoded from JSON, argument literals and
// defaults become the normal forms resolvers' argument decoding reads:
// nil, bool, int64, float64, string, []any, map[string]any (input objects
// with defaults applied) and enum values by name. Custom scalar values are
// checked by the scalar's own parser and kept as given.
//
// The executor and the limits analysis both use it, so a cost function
// sees exactly the arguments a resolver will. Error messages follow
// graphql-js's wording and never name Go types.
package coerce

import (
	"encoding/json"
	"fmt"
	"github.com/graftgql/graft/internal/clip"
	"math"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// Coercer coerces input values for one schema.
type Coercer struct {
	Schema *ast.Schema
	// Scalar returns the input check of the custom scalar name (or nil
	// for none): it reports why a value is not one of the scalar's.
	Scalar func(name string) func(v any) error
}

// Error is a coercion failure of the value at Path (input object field
// names and list indexes, outermost first) inside the coerced value.
type Error struct {
	Path  []any
	Value any // the offending value
	Msg   string
}

// Error returns the message, without the path.
func (e *Error) Error() string { return e.Msg }

// PathString formats the path the way graphql-js prints it after a
// variable name: ".field[0].other".
func (e *Error) PathString() string {
	var b strings.Builder
	for _, p := range e.Path {
		switch x := p.(type) {
		case int:
			b.WriteString("[" + strconv.Itoa(x) + "]")
		default:
			b.WriteString("." + fmt.Sprint(x))
		}
	}
	return b.String()
}

func fail(v any, format string, a ...any) *Error {
	return &Error{Value: v, Msg: fmt.Sprintf(format, a...)}
}

// at prefixes the error's path with p.
func at(err *Error, p any) *Error {
	err.Path = append([]any{p}, err.Path...)
	return err
}

// Value coerces v, decoded from JSON or taken from a literal, to the
// input type t.
func (c *Coercer) Value(v any, t *ast.Type) (any, *Error) {
	if v == nil {
		if t.NonNull {
			return nil, fail(v, "Expected non-nullable type %q not to be null.", t.String())
		}
		return nil, nil
	}
	if t.Elem != nil {
		return c.list(v, t.Elem)
	}
	var def *ast.Definition
	if c.Schema != nil {
		def = c.Schema.Types[t.NamedType]
	}
	if def == nil {
		return nil, fail(v, "Unknown type %q.", t.NamedType)
	}
	switch def.Kind {
	case ast.Enum:
		name, ok := v.(string)
		if !ok {
			return nil, fail(v, "Enum %q cannot represent non-string value: %s.", def.Name, Describe(v))
		}
		if def.EnumValues.ForName(name) == nil {
			return nil, fail(v, "Value %q does not exist in %q enum.", name, def.Name)
		}
		return name, nil
	case ast.InputObject:
		return c.object(v, def)
	case ast.Scalar:
		return c.scalar(v, def.Name)
	}
	return nil, fail(v, "Type %q is not an input type.", def.Name)
}

func (c *Coercer) list(v any, elem *ast.Type) (any, *Error) {
	items, ok := v.([]any)
	if !ok {
		// A single value is a list of one (spec 3.11, input coercion).
		one, err := c.Value(v, elem)
		if err != nil {
			return nil, err
		}
		return []any{one}, nil
	}
	out := make([]any, len(items))
	for i, it := range items {
		x, err := c.Value(it, elem)
		if err != nil {
			return nil, at(err, i)
		}
		out[i] = x
	}
	return out, nil
}

func (c *Coercer) object(v any, def *ast.Definition) (any, *Error) {
	in, ok := v.(map[string]any)
	if !ok {
		return nil, fail(v, "Expected type %q to be an object.", def.Name)
	}
	for k := range in {
		if def.Fields.ForName(k) == nil {
			return nil, fail(v, "Field %q is not defined by type %q.", k, def.Name)
		}
	}
	if def.Directives.ForName("oneOf") != nil {
		// A OneOf input object takes exactly one field, and not null.
		if len(in) != 1 {
			return nil, fail(v, "Exactly one key must be specified for OneOf type %q.", def.Name)
		}
		for k, x := range in {
			if x == nil {
				return nil, fail(v, "Field \"%s.%s\" must be non-null.", def.Name, k)
			}
		}
	}
	out := make(map[string]any, len(def.Fields))
	for _, f := range def.Fields {
		raw, given := in[f.Name]
		if !given {
			if f.DefaultValue == nil {
				if f.Type.NonNull {
					return nil, fail(v, "Field %q of required type %q was not provided.", f.Name, f.Type.String())
				}
				continue
			}
			d, err := f.DefaultValue.Value(nil)
			if err != nil {
				return nil, fail(v, "Field %q has an invalid default value.", f.Name)
			}
			raw = d
		}
		x, err := c.Value(raw, f.Type)
		if err != nil {
			return nil, at(err, f.Name)
		}
		out[f.Name] = x
	}
	return out, nil
}

func (c *Coercer) scalar(v any, name string) (any, *Error) {
	switch name {
	case "Int":
		n, ok := Int64(v)
		if !ok {
			return nil, fail(v, "Int cannot represent non-integer value: %s", Describe(v))
		}
		if n < math.MinInt32 || n > math.MaxInt32 {
			return nil, fail(v, "Int cannot represent non 32-bit signed integer value: %s", Describe(v))
		}
		return n, nil
	case "Float":
		f, ok := toFloat64(v)
		if !ok {
			return nil, fail(v, "Float cannot represent non numeric value: %s", Describe(v))
		}
		return f, nil
	case "String":
		s, ok := v.(string)
		if !ok {
			return nil, fail(v, "String cannot represent a non string value: %s", Describe(v))
		}
		return s, nil
	case "Boolean":
		b, ok := v.(bool)
		if !ok {
			return nil, fail(v, "Boolean cannot represent a non boolean value: %s", Describe(v))
		}
		return b, nil
	case "ID":
		switch x := v.(type) {
		case string:
			return x, nil
		case json.Number:
			if isIntegerText(string(x)) {
				return string(x), nil
			}
		default:
			if n, ok := Int64(v); ok {
				return strconv.FormatInt(n, 10), nil
			}
		}
		return nil, fail(v, "ID cannot represent value: %s", Describe(v))
	}
	if n, ok := v.(json.Number); ok {
		// A number too large for float64 reaches custom scalars as text.
		if i, err := n.Int64(); err == nil {
			v = i
		} else if f, err := n.Float64(); err == nil && !math.IsInf(f, 0) {
			v = f
		} else {
			return nil, fail(v, "Expected type %q. %s is out of range.", name, Describe(v))
		}
	}
	if c.Scalar != nil {
		if check := c.Scalar(name); check != nil {
			if err := check(v); err != nil {
				return nil, fail(v, "Expected type %q. %s", name, err.Error())
			}
		}
	}
	return v, nil
}

// isIntegerText reports whether s is a JSON integer: digits with an
// optional minus sign.
func isIntegerText(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Int64 reads an integer from an input value: an int64 or smaller int, an
// integral float64 within float64's exact range, or a json.Number.
func Int64(v any) (int64, bool) {
	switch n := v.(type) {
	case int64:
		return n, true
	case int:
		return int64(n), true
	case int32:
		return int64(n), true
	case float64:
		if n != math.Trunc(n) || math.IsInf(n, 0) || math.Abs(n) > 1<<53 {
			return 0, false
		}
		return int64(n), true
	case json.Number:
		i, err := n.Int64()
		return i, err == nil
	}
	return 0, false
}

func toFloat64(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, !math.IsInf(n, 0) && !math.IsNaN(n)
	case float32:
		return float64(n), true
	case int64:
		return float64(n), true
	case int:
		return float64(n), true
	case int32:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil && !math.IsInf(f, 0)
	}
	return 0, false
}

// Describe prints an input value the way graphql-js's inspect does for
// JSON values (strings quoted, objects as { a: 1 }), bounded in length.
func Describe(v any) string {
	var b strings.Builder
	describe(&b, v, 0)
	s := b.String()
	if len(s) > 120 {
		s = clip.Prefix(s, 117) + "..."
	}
	return s
}

func describe(b *strings.Builder, v any, depth int) {
	if b.Len() > 120 {
		return
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case string:
		b.WriteString(strconv.Quote(x))
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case int:
		b.WriteString(strconv.Itoa(x))
	case float64:
		// As JavaScript prints numbers: exponents only far from 1.
		format := byte('f')
		if a := math.Abs(x); a != 0 && (a < 1e-6 || a >= 1e21) {
			format = 'e'
		}
		b.WriteString(strconv.FormatFloat(x, format, -1, 64))
	case json.Number:
		b.WriteString(string(x))
	case []any:
		if depth > 2 {
			b.WriteString("[Array]")
			return
		}
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			describe(b, e, depth+1)
		}
		b.WriteByte(']')
	case map[string]any:
		if depth > 2 {
			b.WriteString("[Object]")
			return
		}
		if len(x) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{ ")
		first := true
		for _, k := range sortedKeys(x) {
			if !first {
				b.WriteString(", ")
			}
			first = false
			b.WriteString(k + ": ")
			describe(b, x[k], depth+1)
		}
		b.WriteString(" }")
	default:
		if DescribeOther != nil {
			if s, ok := DescribeOther(v); ok {
				b.WriteString(s)
				return
			}
		}
		b.WriteString("a value")
	}
}

// DescribeOther, when set, names the values of other Go types that
// Describe meets ("a value" otherwise): package schemadef names uploaded
// files.
var DescribeOther func(v any) (string, bool)
