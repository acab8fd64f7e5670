package exec

import (
	"github.com/graftgql/graft/internal/gqlerr"

	"github.com/vektah/gqlparser/v2/gqlerror"
)

// CoerceVariables checks the raw variable values of a request against the
// operation's variable definitions and converts them (defaults applied,
// custom scalars checked by their own parsers) into the forms the executor
// and resolvers use, before anything runs. Errors carry BAD_USER_INPUT and
// name the variable.
func (e *Engine) CoerceVariables(o *Operation, raw map[string]any) (map[string]any, gqlerror.List) {
	vars, err := e.coerce.Variables(o.def.VariableDefinitions, raw)
	if err != nil {
		return nil, gqlerror.List{boundMessage(withCode(err, gqlerr.BadUserInput))}
	}
	return vars, nil
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
