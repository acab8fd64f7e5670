package limits

import (
	"github.com/graftgql/graft/internal/schemadef"
	"github.com/vektah/gqlparser/v2/ast"
)

// pageCost splits the cost of the selection set of a paginated field
// (schema.PageCost) whose type is the named type: the cost of the item
// fields (edges, nodes), paid once per item, and the cost of the other
// fields (pageInfo, totalCount), paid once. Fragments are followed as for
// any selection set. On an interface or union result every field counts
// as an item field, the safe side.
func (a *analyzer) pageCost(set ast.SelectionSet, static string, p *schemadef.Paging) (items, fixed int) {
	if len(set) == 0 {
		return 0, 0
	}
	if a.types != nil {
		if def := a.types.Types[static]; def != nil && def.IsAbstractType() {
			return a.setCost(set, static), 0
		}
	}
	return a.splitCost(set, static, p)
}

// splitCost sums the costs of a set's selections that apply to the object
// type named object into item and fixed costs.
func (a *analyzer) splitCost(set ast.SelectionSet, object string, p *schemadef.Paging) (items, fixed int) {
	for _, sel := range set {
		var i, f int
		switch s := sel.(type) {
		case *ast.Field:
			if p.IsItemField(s.Name) {
				i = a.fieldCost(s)
			} else {
				f = a.fieldCost(s)
			}
		case *ast.InlineFragment:
			if a.applies(s.TypeCondition, object) {
				i, f = a.splitCost(s.SelectionSet, object, p)
			}
		case *ast.FragmentSpread:
			if def := a.fragment(s); def != nil && a.applies(def.TypeCondition, object) {
				i, f = a.splitSpread(def, object, p)
			}
		}
		items, fixed = satAdd(items, i), satAdd(fixed, f)
	}
	return items, fixed
}

// splitSpread is splitCost for a fragment, memoised per fragment and type
// as spreadCost is; a cycle costs zero.
func (a *analyzer) splitSpread(def *ast.FragmentDefinition, object string, p *schemadef.Paging) (items, fixed int) {
	key := splitKey{fragCostKey{fragment: def.Name, object: object}, p}
	if c, ok := a.fragSplit[key]; ok {
		return c[0], c[1]
	}
	if a.fragSplit == nil {
		a.fragSplit = make(map[splitKey][2]int)
	}
	a.fragSplit[key] = [2]int{}
	items, fixed = a.splitCost(def.SelectionSet, object, p)
	a.fragSplit[key] = [2]int{items, fixed}
	return items, fixed
}

// splitKey memoises the split of a fragment for one object type and one
// field's paging (its item fields).
type splitKey struct {
	fragCostKey
	page *schemadef.Paging
}
