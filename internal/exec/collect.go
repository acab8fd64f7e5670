package exec

import (
	"slices"
	"sort"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// Field collection: the fields a selection set yields for one concrete
// object type, with fragments expanded and @skip/@include folded.

// collect gathers the fields of set that apply to objName, in order.
// chain holds the deferred fragments (@defer) enclosing set within this
// selection level, outermost first.
func (p *planner) collect(objName string, set ast.SelectionSet, conds []condition, chain []*deferSite, keys *[]*collected, index map[string]*collected, visited map[string]bool) {
	for _, sel := range set {
		if p.err != nil {
			return
		}
		switch s := sel.(type) {
		case *ast.Field:
			c, ok := foldConditions(s.Directives, conds)
			if !ok {
				continue
			}
			if !p.spend() {
				return
			}
			key := s.Alias
			if key == "" {
				key = s.Name
			}
			entry := index[key]
			if entry == nil {
				entry = &collected{key: key}
				index[key] = entry
				*keys = append(*keys, entry)
			}
			entry.occ = append(entry.occ, occurrence{field: s, conds: c, defers: chain})
		case *ast.InlineFragment:
			c, ok := foldConditions(s.Directives, conds)
			if !ok || !p.applies(objName, s.TypeCondition) {
				continue
			}
			p.collect(objName, s.SelectionSet, c, p.deferChain(objName, s, s.Directives, c, chain), keys, index, visited)
		case *ast.FragmentSpread:
			c, ok := foldConditions(s.Directives, conds)
			if !ok {
				continue
			}
			def := s.Definition
			if def == nil {
				def = p.doc.Fragments.ForName(s.Name)
			}
			if def == nil || !p.applies(objName, def.TypeCondition) {
				continue
			}
			// A fragment already collected under the same conditions adds
			// nothing; skipping it keeps repeated spreads from multiplying.
			inner := p.deferChain(objName, s, s.Directives, c, chain)
			seen := s.Name + conditionsKey(c) + chainKey(inner)
			if visited[seen] {
				continue
			}
			visited[seen] = true
			if !p.spend() {
				return
			}
			p.collect(objName, def.SelectionSet, c, inner, keys, index, visited)
		}
	}
}

// spend takes one unit of the plan budget and reports whether any was
// left.
func (p *planner) spend() bool {
	p.budget--
	if p.budget < 0 {
		p.tooBig = true
		p.err = errPlanBudget
		return false
	}
	return true
}

// foldConditions evaluates constant @skip and @include and appends the
// variable ones to conds. It reports false when a constant excludes the
// selection.
func foldConditions(dirs ast.DirectiveList, conds []condition) ([]condition, bool) {
	for _, d := range dirs {
		if d.Name != "skip" && d.Name != "include" {
			continue
		}
		arg := d.Arguments.ForName("if")
		if arg == nil || arg.Value == nil {
			continue
		}
		include := d.Name == "include"
		if arg.Value.Kind == ast.Variable {
			c := condition{variable: arg.Value.Raw, include: include}
			if !slices.Contains(conds, c) {
				conds = append(conds[:len(conds):len(conds)], c)
			}
			continue
		}
		if (arg.Value.Raw == "true") != include {
			return nil, false
		}
	}
	return conds, true
}

// conditionsKey identifies a set of conditions regardless of order.
func conditionsKey(conds []condition) string {
	if len(conds) == 0 {
		return ""
	}
	parts := make([]string, len(conds))
	for i, c := range conds {
		if c.include {
			parts[i] = "+" + c.variable
		} else {
			parts[i] = "-" + c.variable
		}
	}
	sort.Strings(parts)
	return "|" + strings.Join(parts, ",")
}

// applies reports whether a fragment with type condition cond applies to
// the object type objName.
func (p *planner) applies(objName, cond string) bool {
	if cond == "" || cond == objName {
		return true
	}
	def := p.e.ast.Types[cond]
	if def == nil || def.Kind == ast.Object {
		return false
	}
	for _, pt := range p.e.ast.GetPossibleTypes(def) {
		if pt.Name == objName {
			return true
		}
	}
	return false
}
