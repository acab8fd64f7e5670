package coerce

import (
	"fmt"
	"slices"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Variables coerces the request's raw variable values (decoded from JSON)
// against the operation's variable definitions, applying defaults. The
// error, worded as graphql-js words it, names the variable and points at
// its definition; the caller sets its code.
func (c *Coercer) Variables(defs ast.VariableDefinitionList, raw map[string]any) (map[string]any, *gqlerror.Error) {
	if len(defs) == 0 {
		return nil, nil
	}
	out := make(map[string]any, len(defs))
	for _, d := range defs {
		v, given := raw[d.Variable]
		if !given {
			if d.DefaultValue != nil {
				dv, err := d.DefaultValue.Value(nil)
				if err != nil {
					return nil, varError(d, fmt.Sprintf("Variable \"$%s\" has an invalid default value.", d.Variable))
				}
				x, cerr := c.Value(dv, d.Type)
				if cerr != nil {
					return nil, varError(d, fmt.Sprintf("Variable \"$%s\" has an invalid default value: %s", d.Variable, cerr.Msg))
				}
				out[d.Variable] = x
				continue
			}
			if d.Type.NonNull {
				return nil, varError(d, fmt.Sprintf("Variable \"$%s\" of required type %q was not provided.", d.Variable, d.Type.String()))
			}
			continue
		}
		if v == nil && d.Type.NonNull {
			return nil, varError(d, fmt.Sprintf("Variable \"$%s\" of non-null type %q must not be null.", d.Variable, d.Type.String()))
		}
		x, err := c.Value(v, d.Type)
		if err != nil {
			msg := fmt.Sprintf("Variable \"$%s\" got invalid value %s", d.Variable, Describe(err.Value))
			if len(err.Path) > 0 {
				msg += fmt.Sprintf(" at \"%s%s\"", d.Variable, err.PathString())
			}
			return nil, varError(d, msg+"; "+err.Msg)
		}
		out[d.Variable] = x
	}
	return out, nil
}

func varError(d *ast.VariableDefinition, msg string) *gqlerror.Error {
	e := &gqlerror.Error{Message: msg}
	if d.Position != nil {
		e.Locations = []gqlerror.Location{{Line: d.Position.Line, Column: d.Position.Column}}
	}
	return e
}

// Arguments returns the coerced argument values of a field or directive:
// the given literals (with variables substituted from vars, which hold
// coerced values), else the argument's default. An argument given as a
// variable that has no value counts as not given, so it takes its
// default or stays absent.
func (c *Coercer) Arguments(defs ast.ArgumentDefinitionList, args ast.ArgumentList, vars map[string]any) (map[string]any, error) {
	m := make(map[string]any, len(defs))
	for _, d := range defs {
		v, ok, err := c.Argument(d, args, vars)
		if err != nil {
			return nil, err
		}
		if ok {
			m[d.Name] = v
		}
	}
	return m, nil
}

// Argument returns the coerced value of the argument d among args, and
// false when it is neither given nor defaulted.
func (c *Coercer) Argument(d *ast.ArgumentDefinition, args ast.ArgumentList, vars map[string]any) (any, bool, error) {
	if a := args.ForName(d.Name); a != nil && a.Value != nil {
		given := true
		if a.Value.Kind == ast.Variable {
			_, given = vars[a.Value.Raw]
		}
		if given {
			raw, err := a.Value.Value(vars)
			if err != nil {
				return nil, false, fmt.Errorf("Argument %q has an invalid value: %w", d.Name, err)
			}
			v, cerr := c.Value(raw, d.Type)
			if cerr != nil {
				return nil, false, argError(d.Name, cerr)
			}
			return v, true, nil
		}
	}
	if d.DefaultValue == nil {
		return nil, false, nil
	}
	raw, err := d.DefaultValue.Value(nil)
	if err != nil {
		return nil, false, fmt.Errorf("Argument %q has an invalid default value: %w", d.Name, err)
	}
	v, cerr := c.Value(raw, d.Type)
	if cerr != nil {
		return nil, false, argError(d.Name, cerr)
	}
	return v, true, nil
}

func argError(name string, err *Error) error {
	if len(err.Path) > 0 {
		return fmt.Errorf("Argument %q has an invalid value at %q: %s", name, name+err.PathString(), err.Msg)
	}
	return fmt.Errorf("Argument %q has an invalid value: %s", name, err.Msg)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
