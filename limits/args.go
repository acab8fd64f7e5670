package limits

import (
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/graftgql/graft/internal/coerce"
)

// maxNesting bounds the walk of value literals, which come from the
// request and may nest deeply.
const maxNesting = 64

// coercedVariables returns the operation's variables coerced (defaults
// applied) by the executor's own coercion, so cost functions see the
// values resolvers will. Values that are already coerced come back the
// same; values that do not coerce are left as given, and the arguments
// using them are then left out.
func coercedVariables(c *coerce.Coercer, op *ast.OperationDefinition, vars map[string]any) map[string]any {
	if op == nil || len(op.VariableDefinitions) == 0 {
		return vars
	}
	if cv, err := c.Variables(op.VariableDefinitions, vars); err == nil {
		return cv
	}
	return vars
}

// arguments returns the coerced argument values of a field for its cost
// function: literals and variables, with the schema's argument and
// input-field defaults applied, coerced as the executor coerces them (see
// package internal/coerce). An argument that does not coerce is left out.
func (a *analyzer) arguments(f *ast.Field) map[string]any {
	if f.Definition == nil {
		return map[string]any{}
	}
	args := make(map[string]any, len(f.Definition.Arguments))
	for _, def := range f.Definition.Arguments {
		if v, ok, err := a.coerce.Argument(def, f.Arguments, a.vars); err == nil && ok {
			args[def.Name] = v
		}
	}
	return args
}
