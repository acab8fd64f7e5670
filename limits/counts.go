package limits

import "github.com/vektah/gqlparser/v2/ast"

// counts are the measures that do not depend on the runtime type. In an
// introspection sub-tree depth is the introspection depth, fields are
// counted in introFields, and aliases are counted as anywhere else.
type counts struct {
	depth       int
	fields      int
	aliases     int
	directives  int
	introDepth  int
	introLists  int
	introRoots  int
	introFields int
}

// add merges the counts of a selection beside others in a selection set:
// depths are maximised, the rest summed.
func (c *counts) add(o counts) {
	c.depth = max(c.depth, o.depth)
	c.introDepth = max(c.introDepth, o.introDepth)
	c.introLists = max(c.introLists, o.introLists)
	c.fields = satAdd(c.fields, o.fields)
	c.aliases = satAdd(c.aliases, o.aliases)
	c.directives = satAdd(c.directives, o.directives)
	c.introRoots = satAdd(c.introRoots, o.introRoots)
	c.introFields = satAdd(c.introFields, o.introFields)
}

type countKey struct {
	name  string
	intro bool
}

// countSet measures a selection set. intro is set inside an introspection
// sub-tree, where fields count toward introFields instead of fields and
// directives are not counted.
func (a *analyzer) countSet(set ast.SelectionSet, intro bool) counts {
	var c counts
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			c.add(a.countField(s, intro))
		case *ast.InlineFragment:
			sub := a.countSet(s.SelectionSet, intro)
			if !intro {
				sub.directives = satAdd(sub.directives, len(s.Directives))
			}
			c.add(sub)
		case *ast.FragmentSpread:
			sub := a.countSpread(s, intro)
			if !intro {
				sub.fields = satAdd(sub.fields, 1)
				sub.directives = satAdd(sub.directives, len(s.Directives))
			}
			c.add(sub)
		}
	}
	return c
}

func (a *analyzer) countField(f *ast.Field, intro bool) counts {
	alias := 0
	if f.Alias != "" && f.Alias != f.Name {
		alias = 1
	}
	if intro {
		sub := a.countSet(f.SelectionSet, true)
		lists := sub.introLists
		if isIntrospectionList(f) {
			lists = satAdd(lists, 1)
		}
		return counts{
			depth:       satAdd(1, sub.depth),
			introLists:  lists,
			aliases:     satAdd(sub.aliases, alias),
			introFields: satAdd(sub.introFields, 1),
		}
	}
	if f.Name == "__typename" {
		// Unaliased, __typename is free: clients such as Apollo Client add
		// it to every selection set, and copies of it merge into one
		// response key. Each alias adds a key, so an aliased __typename
		// counts as an alias and a field.
		return counts{fields: alias, aliases: alias}
	}
	if isIntrospection(f.Name) {
		sub := a.countSet(f.SelectionSet, true)
		return counts{
			introDepth:  satAdd(1, sub.depth),
			introLists:  sub.introLists,
			introRoots:  1,
			aliases:     satAdd(sub.aliases, alias),
			introFields: satAdd(sub.introFields, 1),
		}
	}
	c := a.countSet(f.SelectionSet, false)
	c.depth = satAdd(c.depth, 1)
	c.fields = satAdd(c.fields, 1)
	c.aliases = satAdd(c.aliases, alias)
	c.directives = satAdd(c.directives, len(f.Directives))
	return c
}

// countSpread measures the fragment a spread expands to, once per fragment
// and mode. A spread met again while its fragment is being measured (a
// cycle) measures zero.
func (a *analyzer) countSpread(s *ast.FragmentSpread, intro bool) counts {
	def := a.fragment(s)
	if def == nil {
		return counts{}
	}
	key := countKey{name: def.Name, intro: intro}
	if c, ok := a.counts[key]; ok {
		return c // zero while in progress
	}
	if a.counts == nil {
		a.counts = make(map[countKey]counts)
	}
	a.counts[key] = counts{}
	c := a.countSet(def.SelectionSet, intro)
	if !intro {
		c.directives = satAdd(c.directives, len(def.Directives))
	}
	a.counts[key] = c
	return c
}

// introspectionLists are the introspection fields that return lists of
// objects, for documents that were not validated.
var introspectionLists = map[string]bool{
	"types": true, "directives": true, "fields": true, "interfaces": true,
	"possibleTypes": true, "enumValues": true, "inputFields": true, "args": true,
}

// isIntrospectionList reports whether a field in an introspection sub-tree
// selects from a list of objects, the fields whose nesting multiplies the
// size of an introspection response.
func isIntrospectionList(f *ast.Field) bool {
	if len(f.SelectionSet) == 0 {
		return false
	}
	if f.Definition != nil && f.Definition.Type != nil {
		return f.Definition.Type.Elem != nil
	}
	return introspectionLists[f.Name]
}
