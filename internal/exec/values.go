package exec

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
)

// argumentValues computes the coerced argument values of a field or
// directive: given literals (with variables substituted from vars), else
// the argument's default. An argument given as an absent variable counts
// as not given. Values take the forms schema.Field.NewArgs expects.
func argumentValues(s *ast.Schema, defs ast.ArgumentDefinitionList, args ast.ArgumentList, vars map[string]any) (map[string]any, error) {
	m := make(map[string]any, len(defs))
	for _, d := range defs {
		if a := args.ForName(d.Name); a != nil && a.Value != nil {
			given := true
			if a.Value.Kind == ast.Variable {
				_, given = vars[a.Value.Raw]
			}
			if given {
				raw, err := a.Value.Value(vars)
				if err != nil {
					return nil, fmt.Errorf("argument %q: %w", d.Name, err)
				}
				v, err := coerceInput(s, raw, d.Type)
				if err != nil {
					return nil, fmt.Errorf("argument %q: %w", d.Name, err)
				}
				m[d.Name] = v
				continue
			}
		}
		if d.DefaultValue != nil {
			raw, err := d.DefaultValue.Value(nil)
			if err != nil {
				return nil, fmt.Errorf("argument %q: default: %w", d.Name, err)
			}
			v, err := coerceInput(s, raw, d.Type)
			if err != nil {
				return nil, fmt.Errorf("argument %q: default: %w", d.Name, err)
			}
			m[d.Name] = v
		}
	}
	return m, nil
}

// coerceInput converts v, a value from a literal or from decoded JSON
// variables, into the normal form for the input type t: nil, bool, int64,
// float64, string, []any, map[string]any (input objects, defaults
// applied), enum values as their names; custom scalars pass through.
func coerceInput(s *ast.Schema, v any, t *ast.Type) (any, error) {
	if v == nil {
		if t.NonNull {
			return nil, fmt.Errorf("cannot be null")
		}
		return nil, nil
	}
	if t.Elem != nil {
		return coerceList(s, v, t.Elem)
	}
	def := s.Types[t.NamedType]
	if def == nil {
		return nil, fmt.Errorf("unknown type %s", t.NamedType)
	}
	switch def.Kind {
	case ast.Enum:
		name, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("%v is not a valid %s", v, def.Name)
		}
		for _, ev := range def.EnumValues {
			if ev.Name == name {
				return name, nil
			}
		}
		return nil, fmt.Errorf("%q is not a valid %s", name, def.Name)
	case ast.InputObject:
		return coerceObject(s, v, def)
	case ast.Scalar:
		return coerceScalar(v, def.Name)
	}
	return nil, fmt.Errorf("%s is not an input type", def.Name)
}

func coerceList(s *ast.Schema, v any, elem *ast.Type) (any, error) {
	var items []any
	switch l := v.(type) {
	case []any:
		items = l
	default:
		rv := reflect.ValueOf(v)
		if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
			one, err := coerceInput(s, v, elem)
			if err != nil {
				return nil, err
			}
			return []any{one}, nil
		}
		items = make([]any, rv.Len())
		for i := range items {
			items[i] = rv.Index(i).Interface()
		}
	}
	out := make([]any, len(items))
	for i, it := range items {
		c, err := coerceInput(s, it, elem)
		if err != nil {
			return nil, fmt.Errorf("at index %d: %w", i, err)
		}
		out[i] = c
	}
	return out, nil
}

func coerceObject(s *ast.Schema, v any, def *ast.Definition) (any, error) {
	in, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("must be a %s object", def.Name)
	}
	for k := range in {
		if def.Fields.ForName(k) == nil {
			return nil, fmt.Errorf("unknown field %q of %s", k, def.Name)
		}
	}
	out := make(map[string]any, len(def.Fields))
	for _, f := range def.Fields {
		raw, given := in[f.Name]
		if !given {
			if f.DefaultValue == nil {
				if f.Type.NonNull {
					return nil, fmt.Errorf("field %s.%s must be defined", def.Name, f.Name)
				}
				continue
			}
			d, err := f.DefaultValue.Value(nil)
			if err != nil {
				return nil, fmt.Errorf("field %s.%s: default: %w", def.Name, f.Name, err)
			}
			raw = d
		}
		c, err := coerceInput(s, raw, f.Type)
		if err != nil {
			return nil, fmt.Errorf("field %s.%s: %w", def.Name, f.Name, err)
		}
		out[f.Name] = c
	}
	return out, nil
}

func coerceScalar(v any, name string) (any, error) {
	switch name {
	case "Int":
		n, ok := toInt64(v)
		if !ok {
			return nil, fmt.Errorf("cannot use %v as Int", v)
		}
		if n < math.MinInt32 || n > math.MaxInt32 {
			return nil, fmt.Errorf("%d is outside the 32-bit range of Int", n)
		}
		return n, nil
	case "Float":
		f, ok := toFloat64(v)
		if !ok {
			return nil, fmt.Errorf("cannot use %v as Float", v)
		}
		return f, nil
	case "String":
		str, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("cannot use %v as String", v)
		}
		return str, nil
	case "Boolean":
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("cannot use %v as Boolean", v)
		}
		return b, nil
	case "ID":
		if str, ok := v.(string); ok {
			return str, nil
		}
		if n, ok := toInt64(v); ok {
			return strconv.FormatInt(n, 10), nil
		}
		return nil, fmt.Errorf("cannot use %v as ID", v)
	}
	if n, ok := v.(json.Number); ok {
		if i, err := n.Int64(); err == nil {
			return i, nil
		}
		f, err := n.Float64()
		if err != nil {
			return nil, fmt.Errorf("cannot use %v as %s", v, name)
		}
		return f, nil
	}
	return v, nil
}

func toInt64(v any) (int64, bool) {
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
		return n, true
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
		return f, err == nil
	}
	return 0, false
}
