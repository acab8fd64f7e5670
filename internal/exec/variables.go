package exec

import (
	"fmt"
	"strings"

	"github.com/graftgql/graft/internal/gqlerr"

	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator"
)

// CoerceVariables checks the raw variable values of a request against the
// operation's variable definitions and converts them (defaults applied)
// into the forms the executor and resolvers use. Errors carry
// BAD_USER_INPUT and name the variable.
func (e *Engine) CoerceVariables(o *Operation, raw map[string]any) (map[string]any, gqlerror.List) {
	defs := o.def.VariableDefinitions
	if len(defs) == 0 {
		return nil, nil
	}
	checked, err := checkVariables(e, o, raw)
	if err != nil {
		return nil, gqlerror.List{boundMessage(variableError(err))}
	}
	out := make(map[string]any, len(checked))
	for _, d := range defs {
		v, ok := checked[d.Variable]
		if !ok {
			continue
		}
		c, cerr := coerceInput(e.ast, v, d.Type)
		if cerr != nil {
			ge := gqlerror.Errorf("Variable \"$%s\" got invalid value: %s.", d.Variable, cerr.Error())
			return nil, gqlerror.List{boundMessage(withCode(ge, gqlerr.BadUserInput))}
		}
		out[d.Variable] = c
	}
	return out, nil
}

// variableError rewrites an error of validator.VariableValues, whose path
// is variable.<name>[.<field or index>...], into a message naming the
// variable.
func variableError(err error) *gqlerror.Error {
	ge := toGQLError(err)
	name, rest := "", []string(nil)
	if len(ge.Path) >= 2 {
		name = fmt.Sprint(ge.Path[1])
		for _, p := range ge.Path[2:] {
			rest = append(rest, fmt.Sprint(p))
		}
	}
	msg := ge.Message
	switch {
	case name == "":
	case len(rest) == 0:
		msg = fmt.Sprintf("Variable \"$%s\" %s.", name, msg)
	default:
		msg = fmt.Sprintf("Variable \"$%s\" at %q: %s.", name, strings.Join(rest, "."), msg)
	}
	out := &gqlerror.Error{Message: msg, Err: err}
	if len(ge.Locations) > 0 {
		out.Locations = ge.Locations
	}
	return withCode(out, gqlerr.BadUserInput)
}

// included reports whether a field with the given conditions is selected
// under vars.
func included(conds [][]condition, vars map[string]any) bool {
	for _, all := range conds {
		ok := true
		for _, c := range all {
			b, _ := vars[c.variable].(bool)
			if b != c.include {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// checkVariables runs gqlparser's variable validation, turning a panic on
// unexpected input into an error.
func checkVariables(e *Engine, o *Operation, raw map[string]any) (vals map[string]any, err error) {
	defer func() {
		if p := recover(); p != nil {
			e.logger.Error("graphql: variable validation panicked", "panic", p)
			vals, err = nil, gqlerror.Errorf("invalid variables")
		}
	}()
	return validator.VariableValues(e.ast, o.def, raw)
}
