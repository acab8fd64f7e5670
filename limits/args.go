package limits

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
)

// arguments returns the coerced argument values of a field for its cost
// function: literals and variables, with the schema's argument and
// input-field defaults applied. Values take the forms of schema.Field's
// NewArgs: nil, bool, int64, float64, string (enum values by name), []any,
// map[string]any. Variables are accepted as coerced or as decoded from
// JSON (float64, json.Number) and converted by the argument's type.
func (a *analyzer) arguments(f *ast.Field) map[string]any {
	if f.Definition == nil {
		args := make(map[string]any, len(f.Arguments))
		for _, arg := range f.Arguments {
			if v, ok := a.value(arg.Value, nil); ok {
				args[arg.Name] = v
			}
		}
		return args
	}
	args := make(map[string]any, len(f.Definition.Arguments))
	for _, def := range f.Definition.Arguments {
		if arg := f.Arguments.ForName(def.Name); arg != nil {
			if v, ok := a.value(arg.Value, def.Type); ok {
				args[def.Name] = v
				continue
			}
		}
		if v, ok := a.value(def.DefaultValue, def.Type); ok {
			args[def.Name] = v
		}
	}
	return args
}

// value coerces a literal of type t (nil when unknown). It reports false
// for a variable that has no value and no default, or a nil literal.
func (a *analyzer) value(v *ast.Value, t *ast.Type) (any, bool) {
	if v == nil {
		return nil, false
	}
	switch v.Kind {
	case ast.Variable:
		return a.variable(v, t)
	case ast.IntValue:
		if i, err := strconv.ParseInt(v.Raw, 10, 64); err == nil {
			if isNamed(t, "Float") {
				return float64(i), true
			}
			return i, true
		}
		f, err := strconv.ParseFloat(v.Raw, 64)
		return f, err == nil
	case ast.FloatValue:
		f, err := strconv.ParseFloat(v.Raw, 64)
		return f, err == nil
	case ast.StringValue, ast.BlockValue, ast.EnumValue:
		return v.Raw, true
	case ast.BooleanValue:
		return v.Raw == "true", true
	case ast.NullValue:
		return nil, true
	case ast.ListValue:
		var elem *ast.Type
		if t != nil {
			elem = t.Elem
		}
		list := make([]any, 0, len(v.Children))
		for _, c := range v.Children {
			x, _ := a.value(c.Value, elem)
			list = append(list, x)
		}
		return list, true
	case ast.ObjectValue:
		def := a.inputType(t)
		obj := make(map[string]any, len(v.Children))
		for _, c := range v.Children {
			var ft *ast.Type
			if def != nil {
				if fd := def.Fields.ForName(c.Name); fd != nil {
					ft = fd.Type
				}
			}
			if x, ok := a.value(c.Value, ft); ok {
				obj[c.Name] = x
			}
		}
		a.inputDefaults(obj, def)
		return obj, true
	}
	return nil, false
}

// variable returns the value of a variable reference: the request's value,
// else the variable's default.
func (a *analyzer) variable(v *ast.Value, t *ast.Type) (any, bool) {
	if x, ok := a.vars[v.Raw]; ok {
		return a.normalize(x, t, 0), true
	}
	vd := v.VariableDefinition
	if vd == nil && a.op != nil {
		vd = a.op.VariableDefinitions.ForName(v.Raw)
	}
	if vd == nil || vd.DefaultValue == nil || vd.DefaultValue.Kind == ast.Variable {
		return nil, false
	}
	return a.value(vd.DefaultValue, t)
}

// maxNesting bounds the walk of variable values, which come from the
// request and may nest deeply.
const maxNesting = 64

// normalize converts a variable's value, decoded from JSON or coerced, to
// the forms arguments returns for the type t.
func (a *analyzer) normalize(x any, t *ast.Type, nesting int) any {
	if nesting > maxNesting {
		return nil
	}
	switch v := x.(type) {
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return a.normalize(i, t, nesting)
		}
		f, _ := v.Float64()
		return a.normalize(f, t, nesting)
	case int:
		return a.normalize(int64(v), t, nesting)
	case int32:
		return a.normalize(int64(v), t, nesting)
	case int64:
		if isNamed(t, "Float") {
			return float64(v)
		}
		return v
	case float64:
		if isNamed(t, "Int") && v == math.Trunc(v) && math.Abs(v) < 1<<63 {
			return int64(v)
		}
		return v
	case []any:
		var elem *ast.Type
		if t != nil {
			elem = t.Elem
		}
		list := make([]any, len(v))
		for i, e := range v {
			list[i] = a.normalize(e, elem, nesting+1)
		}
		return list
	case map[string]any:
		def := a.inputType(t)
		obj := make(map[string]any, len(v))
		for k, e := range v {
			var ft *ast.Type
			if def != nil {
				if fd := def.Fields.ForName(k); fd != nil {
					ft = fd.Type
				}
			}
			obj[k] = a.normalize(e, ft, nesting+1)
		}
		a.inputDefaults(obj, def)
		return obj
	}
	return x
}

// inputType returns the input object definition a type names, or nil.
func (a *analyzer) inputType(t *ast.Type) *ast.Definition {
	if t == nil || t.Elem != nil || a.types == nil {
		return nil
	}
	if def := a.types.Types[t.NamedType]; def != nil && def.Kind == ast.InputObject {
		return def
	}
	return nil
}

// inputDefaults fills the defaults of the input object's fields missing
// from obj.
func (a *analyzer) inputDefaults(obj map[string]any, def *ast.Definition) {
	if def == nil {
		return
	}
	for _, fd := range def.Fields {
		if _, ok := obj[fd.Name]; ok || fd.DefaultValue == nil {
			continue
		}
		if x, ok := a.value(fd.DefaultValue, fd.Type); ok {
			obj[fd.Name] = x
		}
	}
}

// isNamed reports whether t is the named type name (not a list).
func isNamed(t *ast.Type, name string) bool {
	return t != nil && t.Elem == nil && t.NamedType == name
}
