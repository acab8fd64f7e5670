package exec

import (
	"slices"

	schema "github.com/graftgql/graft/internal/schemadef"
)

// selectionView is the schema.Selection a resolver reads with
// schema.SelectionFrom: the plan of the selection below its field, read
// with the request's variables. It holds no request state that is pooled.
type selectionView struct {
	e    *Engine
	vars map[string]any
	sp   *selectionPlan
}

// Types lists the object types the selection applies to, sorted.
func (s *selectionView) Types() []string {
	if s.sp.object != nil {
		return []string{s.sp.object.typeName}
	}
	names := make([]string, 0, len(s.sp.byType))
	for n := range s.sp.byType {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Fields returns the included fields selected for typeName, in response
// order.
func (s *selectionView) Fields(typeName string) []schema.SelectedField {
	op := s.sp.object
	if op == nil {
		op = s.sp.byType[typeName]
	} else if op.typeName != typeName {
		return nil
	}
	if op == nil {
		return nil
	}
	out := make([]schema.SelectedField, 0, len(op.fields))
	for _, f := range op.fields {
		if f.conds != nil && !included(f.conds, s.vars) {
			continue
		}
		sf := schema.SelectedField{Name: f.name, Alias: f.key}
		if f.ast.Definition != nil && len(f.ast.Definition.Arguments) > 0 {
			if vals, err := s.e.coerce.Arguments(f.ast.Definition.Arguments, f.ast.Arguments, s.vars); err == nil {
				sf.Args = vals
			}
		}
		if f.sub != nil {
			sf.Selection = &selectionView{e: s.e, vars: s.vars, sp: f.sub}
		}
		out = append(out, sf)
	}
	return out
}

// Has reports whether a field named name is selected for any type.
func (s *selectionView) Has(name string) bool {
	for _, t := range s.Types() {
		for _, f := range s.Fields(t) {
			if f.Name == name {
				return true
			}
		}
	}
	return false
}
