package exec

import (
	"fmt"

	"github.com/graftgql/graft/internal/gqlerr"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// DefaultValidationBudget bounds the work CheckValidationBudget lets a
// document ask of validation, in units of about one field comparison:
// 220 copies of one field in one selection set, or a chain of about 40
// fragments each adding a field and spreading the next. gqlparser
// validates either in a few milliseconds; at ten times the size it takes
// seconds (copies grow with the square, chains faster). Real documents,
// the standard introspection query among them, use a few hundred units.
const DefaultValidationBudget = 50_000

// reasonValidationBudget is the extensions.reason of the error a document
// over the validation budget gets; its code is GRAPHQL_VALIDATION_FAILED.
const reasonValidationBudget = "VALIDATION_BUDGET_EXCEEDED"

// CheckValidationBudget estimates, before validation, the work of the
// rules whose cost grows faster than the document: the merge check
// compares every pair of fields that share a response name in a selection
// set (fragments expanded, sub-selections of merged fields compared in
// turn) and every pair of fragments spread into one set. Ten thousand
// copies of one field, or a chain of ten thousand fragments each adding
// a field, fit in a small body yet cost gqlparser minutes and gigabytes.
// The estimate stops as soon as it passes budget, so its own cost is
// linear in the document plus O(budget). A document over budget gets one error with code
// GRAPHQL_VALIDATION_FAILED; nil means the document may be validated.
// budget <= 0 means DefaultValidationBudget.
func CheckValidationBudget(doc *ast.QueryDocument, budget int) *gqlerror.Error {
	if budget <= 0 {
		budget = DefaultValidationBudget
	}
	m := &mergeBudget{left: budget, onPath: map[string]bool{}, fragments: make(map[string]*ast.FragmentDefinition, len(doc.Fragments))}
	for _, f := range doc.Fragments {
		if _, dup := m.fragments[f.Name]; !dup {
			m.fragments[f.Name] = f
		}
	}
	m.cyclic = cyclicFragments(m.fragments)
	for _, op := range doc.Operations {
		m.selectionSets(op.SelectionSet)
	}
	for _, f := range doc.Fragments {
		m.selectionSets(f.SelectionSet)
	}
	if m.left >= 0 {
		return nil
	}
	return &gqlerror.Error{
		Message: fmt.Sprintf("The document repeats fields or fragments too often to be validated "+
			"(more than %d field comparisons): merge the repeated selections.", budget),
		Extensions: map[string]any{"code": gqlerr.ValidationFailed, "reason": reasonValidationBudget, "limit": budget},
	}
}

// mergeBudget walks a document and spends its budget on the comparisons
// validation would make. left goes negative once the budget is spent.
type mergeBudget struct {
	fragments map[string]*ast.FragmentDefinition
	left      int
	onPath    map[string]bool
	// cyclic are the fragments on a cycle of spreads, which are not
	// expanded (see collect).
	cyclic map[string]bool
}

// selectionSets charges every selection set nested in set, set included,
// as the merge rule visits each of them.
func (m *mergeBudget) selectionSets(set ast.SelectionSet) {
	if m.left < 0 || len(set) == 0 {
		return
	}
	m.group([]ast.SelectionSet{set})
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			m.selectionSets(s.SelectionSet)
		case *ast.InlineFragment:
			m.selectionSets(s.SelectionSet)
		}
	}
}

// group charges the comparisons within the union of sets: pairs of fields
// with one response name, pairs of fragments, and then, for each response
// name given more than once, the union of their sub-selections.
func (m *mergeBudget) group(sets []ast.SelectionSet) {
	c := budgetFields{byKey: map[string][]*ast.Field{}}
	for _, set := range sets {
		m.collect(set, &c)
		if m.left < 0 {
			return
		}
	}
	m.spend(c.spreads * c.spreads)
	for _, fields := range c.byKey {
		if m.spend(len(fields) * len(fields)); m.left < 0 {
			return
		}
	}
	for _, fields := range c.byKey {
		if len(fields) < 2 {
			continue
		}
		var subs []ast.SelectionSet
		for _, f := range fields {
			if len(f.SelectionSet) > 0 {
				subs = append(subs, f.SelectionSet)
			}
		}
		if len(subs) > 1 {
			m.group(subs)
		}
		if m.left < 0 {
			return
		}
	}
}

// budgetFields is the expansion of a group of selection sets.
type budgetFields struct {
	byKey   map[string][]*ast.Field
	spreads int
}

// collect adds the fields of set to c, expanding inline fragments and
// fragment spreads. A fragment on a cycle of spreads is not expanded: the
// document is refused by NoFragmentCycles, and the merge rule compares
// each pair of fragments once, so its cost is that of the fragments' own
// selection sets, which are charged where they are defined. (Expanding
// it would not end: a spread inside a merged field's sub-selection comes
// back with every comparison of that field.) Each item collected costs
// one unit, so an expansion that grows exponentially stops at the budget.
func (m *mergeBudget) collect(set ast.SelectionSet, c *budgetFields) {
	for _, sel := range set {
		if m.spend(1); m.left < 0 {
			return
		}
		switch s := sel.(type) {
		case *ast.Field:
			key := s.Alias
			if key == "" {
				key = s.Name
			}
			c.byKey[key] = append(c.byKey[key], s)
		case *ast.InlineFragment:
			m.collect(s.SelectionSet, c)
		case *ast.FragmentSpread:
			c.spreads++
			def := m.fragments[s.Name]
			if def == nil || m.onPath[s.Name] || m.cyclic[s.Name] {
				continue
			}
			m.onPath[s.Name] = true
			m.collect(def.SelectionSet, c)
			delete(m.onPath, s.Name)
		}
		if m.left < 0 {
			return
		}
	}
}

// spend takes n units from the budget, saturating rather than
// overflowing.
func (m *mergeBudget) spend(n int) {
	if n < 0 || n > m.left {
		m.left = -1
		return
	}
	m.left -= n
}

// cyclicFragments returns the fragments of frags that are on a cycle of
// spreads (a fragment that spreads itself, or a strongly connected group
// of them), nil when there is none: Tarjan's algorithm over the spreads
// each fragment makes at any depth, in time linear in the document.
func cyclicFragments(frags map[string]*ast.FragmentDefinition) map[string]bool {
	type node struct {
		index, low int
		onStack    bool
		spreads    []string
	}
	nodes := make(map[string]*node, len(frags))
	for name, f := range frags {
		n := &node{index: -1}
		var walk func(ast.SelectionSet)
		walk = func(set ast.SelectionSet) {
			for _, sel := range set {
				switch s := sel.(type) {
				case *ast.Field:
					walk(s.SelectionSet)
				case *ast.InlineFragment:
					walk(s.SelectionSet)
				case *ast.FragmentSpread:
					if frags[s.Name] != nil {
						n.spreads = append(n.spreads, s.Name)
					}
				}
			}
		}
		walk(f.SelectionSet)
		nodes[name] = n
	}
	var cyclic map[string]bool
	var stack []string
	next := 0
	var connect func(name string)
	connect = func(name string) {
		n := nodes[name]
		n.index, n.low, n.onStack = next, next, true
		next++
		stack = append(stack, name)
		self := false
		for _, to := range n.spreads {
			t := nodes[to]
			switch {
			case to == name:
				self = true
			case t.index < 0:
				connect(to)
				n.low = min(n.low, t.low)
			case t.onStack:
				n.low = min(n.low, t.index)
			}
		}
		if n.low != n.index {
			return
		}
		i := len(stack) - 1
		for stack[i] != name {
			i--
		}
		group := stack[i:]
		stack = stack[:i]
		for _, g := range group {
			nodes[g].onStack = false
		}
		if len(group) > 1 || self {
			if cyclic == nil {
				cyclic = map[string]bool{}
			}
			for _, g := range group {
				cyclic[g] = true
			}
		}
	}
	for name, n := range nodes {
		if n.index < 0 {
			connect(name)
		}
	}
	return cyclic
}
