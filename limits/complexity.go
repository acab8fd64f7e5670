package limits

import (
	"math"

	"github.com/graftgql/graft/internal/schemadef"

	"github.com/graftgql/graft/schema"
	"github.com/vektah/gqlparser/v2/ast"
)

type fragCostKey struct {
	fragment string
	object   string
}

// setCost returns the complexity of a selection set whose static type is
// the named type: for an interface or union holding fragments, the
// maximum over its possible object types of the selections that apply to
// that type.
func (a *analyzer) setCost(set ast.SelectionSet, static string) int {
	if len(set) == 0 {
		return 0
	}
	var def *ast.Definition
	if a.types != nil {
		def = a.types.Types[static]
	}
	if def == nil {
		return a.evalCost(set, "") // unknown type: every fragment applies
	}
	if !def.IsAbstractType() {
		return a.evalCost(set, static)
	}
	possible := a.types.PossibleTypes[static]
	if len(possible) == 0 {
		return a.evalCost(set, "")
	}
	if !hasFragments(set) {
		return a.evalCost(set, static)
	}
	a.multi++
	best := 0
	for _, p := range possible {
		best = max(best, a.evalCost(set, p.Name))
	}
	a.multi--
	return best
}

func hasFragments(set ast.SelectionSet) bool {
	for _, sel := range set {
		if _, ok := sel.(*ast.Field); !ok {
			return true
		}
	}
	return false
}

// evalCost sums the cost of the selections of a set that apply to the
// object type named object ("" when unknown: every selection applies).
func (a *analyzer) evalCost(set ast.SelectionSet, object string) int {
	sum := 0
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			sum = satAdd(sum, a.fieldCost(s))
		case *ast.InlineFragment:
			if a.applies(s.TypeCondition, object) {
				sum = satAdd(sum, a.evalCost(s.SelectionSet, object))
			}
		case *ast.FragmentSpread:
			if def := a.fragment(s); def != nil && a.applies(def.TypeCondition, object) {
				sum = satAdd(sum, a.spreadCost(def, object))
			}
		}
	}
	return sum
}

// applies reports whether a fragment with the type condition cond applies
// to the object type named object.
func (a *analyzer) applies(cond, object string) bool {
	if cond == "" || object == "" || cond == object || a.types == nil {
		return true
	}
	def := a.types.Types[cond]
	if def == nil {
		return true
	}
	if !def.IsAbstractType() {
		return false
	}
	for _, p := range a.types.PossibleTypes[cond] {
		if p.Name == object {
			return true
		}
	}
	return false
}

// spreadCost returns the cost of a fragment for one object type, once per
// fragment and type; a cycle costs zero.
func (a *analyzer) spreadCost(def *ast.FragmentDefinition, object string) int {
	key := fragCostKey{fragment: def.Name, object: object}
	if c, ok := a.fragCost[key]; ok {
		return c
	}
	if a.fragCost == nil {
		a.fragCost = make(map[fragCostKey]int)
	}
	a.fragCost[key] = 0
	c := a.evalCost(def.SelectionSet, object)
	a.fragCost[key] = c
	return c
}

// fieldCost returns the cost of one field selection: its declared cost, or
// 1 plus the cost of its selection set. Introspection costs nothing.
func (a *analyzer) fieldCost(f *ast.Field) int {
	if f.Name == "__typename" || isIntrospection(f.Name) {
		return 0
	}
	if a.multi > 0 {
		if c, ok := a.fieldCosts[f]; ok {
			return c
		}
	}
	var fn schema.CostFunc
	var page *schemadef.Paging
	if f.ObjectDefinition != nil {
		if a.pages != nil {
			page = a.pages(f.ObjectDefinition.Name, f.Name)
		}
		if a.cost != nil {
			fn = a.cost(f.ObjectDefinition.Name, f.Name)
		}
	}
	childType := ""
	if f.Definition != nil && f.Definition.Type != nil {
		childType = f.Definition.Type.Name()
	}
	var c int
	switch {
	case page != nil:
		items, fixed := a.pageCost(f.SelectionSet, childType, page)
		c = satAdd(1, satAdd(satMul(page.Size(a.arguments(f)), items), fixed))
	case fn != nil:
		c = callCost(fn, a.arguments(f), a.setCost(f.SelectionSet, childType))
	default:
		c = satAdd(1, a.setCost(f.SelectionSet, childType))
	}
	if a.multi > 0 {
		if a.fieldCosts == nil {
			a.fieldCosts = make(map[*ast.Field]int)
		}
		a.fieldCosts[f] = c
	}
	return c
}

// callCost runs a declared cost function. One that panics or returns a
// negative cost counts as the largest cost, so that a broken declaration
// refuses the query instead of letting it through.
func callCost(fn schema.CostFunc, args map[string]any, children int) (cost int) {
	defer func() {
		if recover() != nil {
			cost = math.MaxInt
		}
	}()
	cost = fn(args, children)
	if cost < 0 {
		cost = math.MaxInt
	}
	return cost
}
