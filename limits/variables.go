package limits

import "github.com/vektah/gqlparser/v2/ast"

// UsesVariables reports whether the result of Analyze for op can depend on
// the variables: whether any field argument in the operation, fragments
// expanded and introspection aside, refers to a variable. When it reports
// false the router may analyse the document once and cache the result.
func UsesVariables(doc *ast.QueryDocument, op *ast.OperationDefinition) bool {
	if op == nil {
		return false
	}
	w := variableWalk{doc: doc}
	return w.set(op.SelectionSet)
}

type variableWalk struct {
	doc       *ast.QueryDocument
	fragments fragmentIndex
	seen      map[string]bool
}

func (w *variableWalk) set(set ast.SelectionSet) bool {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if s.Name == "__typename" || isIntrospection(s.Name) {
				continue
			}
			for _, arg := range s.Arguments {
				if hasVariable(arg.Value, 0) {
					return true
				}
			}
			if w.set(s.SelectionSet) {
				return true
			}
		case *ast.InlineFragment:
			if w.set(s.SelectionSet) {
				return true
			}
		case *ast.FragmentSpread:
			def := s.Definition
			if def == nil {
				def = w.fragments.lookup(w.doc, s.Name)
			}
			if def == nil || w.seen[def.Name] {
				continue
			}
			if w.seen == nil {
				w.seen = make(map[string]bool)
			}
			w.seen[def.Name] = true
			if w.set(def.SelectionSet) {
				return true
			}
		}
	}
	return false
}

func hasVariable(v *ast.Value, nesting int) bool {
	if v == nil || nesting > maxNesting {
		return v != nil
	}
	if v.Kind == ast.Variable {
		return true
	}
	for _, c := range v.Children {
		if hasVariable(c.Value, nesting+1) {
			return true
		}
	}
	return false
}
