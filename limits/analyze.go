package limits

import (
	"github.com/graftgql/graft/internal/coerce"
	"github.com/graftgql/graft/internal/schemadef"
	"github.com/graftgql/graft/schema"
	"github.com/vektah/gqlparser/v2/ast"
)

// Analyze measures the operation op of the validated document doc against
// the schema s. vars are the operation's variable values, coerced or as
// decoded from JSON; they only matter to fields with a declared cost (see
// UsesVariables). Analyze never panics on its input: a nil operation
// measures zero, and a document that was not validated is measured as far
// as it can be (unknown fields cost 1 plus their children, and fragments
// on unknown types apply everywhere).
func Analyze(s *schema.Schema, doc *ast.QueryDocument, op *ast.OperationDefinition, vars map[string]any) Result {
	var types *ast.Schema
	var cost costLookup
	var pages pageLookup
	if m := model(s); m != nil {
		types = m.AST()
		cost = func(typeName, fieldName string) schema.CostFunc {
			if t := m.Type(typeName); t != nil {
				if f := t.Field(fieldName); f != nil {
					return schema.CostFunc(f.Cost)
				}
			}
			return nil
		}
		pages = func(typeName, fieldName string) *schemadef.Paging {
			if t := m.Type(typeName); t != nil {
				if f := t.Field(fieldName); f != nil {
					return f.Page
				}
			}
			return nil
		}
	}
	return analyzeWith(types, cost, pages, doc, op, vars)
}

// model returns the built model behind s, or nil for a nil or zero Schema.
func model(s *schema.Schema) *schemadef.Schema {
	if s == nil {
		return nil
	}
	return schemadef.Model(s)
}

// costLookup returns the declared cost of a field of a named type, or nil
// for the default cost.
type costLookup func(typeName, fieldName string) schema.CostFunc

// pageLookup returns the paging of a field of a named type declared with
// schema.PageCost, or nil; paging takes precedence over a cost function.
type pageLookup func(typeName, fieldName string) *schemadef.Paging

// analyzer holds the state of one analysis: the memo tables that make each
// fragment cost its size once, whatever the number of its expansions.
type analyzer struct {
	types *ast.Schema
	cost  costLookup
	pages pageLookup
	doc   *ast.QueryDocument
	op    *ast.OperationDefinition
	vars  map[string]any
	// coerce is the executor's input coercion, for cost functions'
	// arguments.
	coerce *coerce.Coercer

	fragments fragmentIndex

	counts     map[countKey]counts
	fieldCosts map[*ast.Field]int
	fragCost   map[fragCostKey]int
	// fragSplit memoises the item and fixed costs of fragments spread in
	// paginated fields (pagecost.go).
	fragSplit map[splitKey][2]int
	// multi is above zero while a selection set is evaluated once for
	// each of several possible types; field costs are memoised then.
	multi int
}

func analyze(types *ast.Schema, cost costLookup, doc *ast.QueryDocument, op *ast.OperationDefinition, vars map[string]any) Result {
	return analyzeWith(types, cost, nil, doc, op, vars)
}

func analyzeWith(types *ast.Schema, cost costLookup, pages pageLookup, doc *ast.QueryDocument, op *ast.OperationDefinition, vars map[string]any) Result {
	if op == nil {
		return Result{}
	}
	a := &analyzer{types: types, cost: cost, pages: pages, doc: doc, op: op, coerce: &coerce.Coercer{Schema: types}}
	a.vars = coercedVariables(a.coerce, op, vars)
	c := a.countSet(op.SelectionSet, false)
	directives := satAdd(c.directives, len(op.Directives))
	for _, v := range op.VariableDefinitions {
		if v != nil {
			directives = satAdd(directives, len(v.Directives))
		}
	}
	return Result{
		Depth:               c.depth,
		Complexity:          a.setCost(op.SelectionSet, a.rootType()),
		Fields:              c.fields,
		Aliases:             c.aliases,
		Directives:          directives,
		IntrospectionDepth:  c.introDepth,
		IntrospectionLists:  c.introLists,
		IntrospectionRoots:  c.introRoots,
		IntrospectionFields: c.introFields,
	}
}

// rootType returns the name of the operation's root type.
func (a *analyzer) rootType() string {
	if a.types != nil {
		var def *ast.Definition
		switch a.op.Operation {
		case ast.Mutation:
			def = a.types.Mutation
		case ast.Subscription:
			def = a.types.Subscription
		default:
			def = a.types.Query
		}
		if def != nil {
			return def.Name
		}
	}
	return ""
}

// fragment returns the definition a spread expands to, or nil.
func (a *analyzer) fragment(s *ast.FragmentSpread) *ast.FragmentDefinition {
	if s.Definition != nil {
		return s.Definition
	}
	return a.fragments.lookup(a.doc, s.Name)
}

// fragmentIndex finds fragments of a document that was not validated,
// whose spreads do not point to their definitions, in constant time.
type fragmentIndex map[string]*ast.FragmentDefinition

func (x *fragmentIndex) lookup(doc *ast.QueryDocument, name string) *ast.FragmentDefinition {
	if doc == nil {
		return nil
	}
	if *x == nil {
		*x = make(fragmentIndex, len(doc.Fragments))
		for _, f := range doc.Fragments {
			if _, dup := (*x)[f.Name]; f != nil && !dup {
				(*x)[f.Name] = f
			}
		}
	}
	return (*x)[name]
}

// isIntrospection reports whether a field opens an introspection sub-tree.
func isIntrospection(name string) bool {
	return name == "__schema" || name == "__type"
}
