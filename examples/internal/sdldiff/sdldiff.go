// Package sdldiff compares two schemas loaded by gqlparser: the types,
// fields, arguments, nullability, defaults, enum values and descriptions
// that a schema served by graft must match exactly, and the order of
// fields, arguments and enum values (introspection lists them in that
// order, and clients and differential tests see it).
package sdldiff

import (
	"fmt"
	"slices"
	"sort"

	"github.com/vektah/gqlparser/v2/ast"
)

// Diff returns one line for each difference between got and want,
// ignoring built-in and introspection types and the order of types.
func Diff(got, want *ast.Schema) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	names := func(s *ast.Schema) []string {
		var n []string
		for name, d := range s.Types {
			// CacheControlScope belongs to the @cacheControl hints, not
			// to the shape of the schema.
			if !d.BuiltIn && name != "CacheControlScope" {
				n = append(n, name)
			}
		}
		sort.Strings(n)
		return n
	}
	gotNames, wantNames := names(got), names(want)
	if !slices.Equal(gotNames, wantNames) {
		add("types: got %v, want %v", gotNames, wantNames)
	}
	for _, name := range wantNames {
		g, w := got.Types[name], want.Types[name]
		if g == nil {
			continue
		}
		if g.Kind != w.Kind {
			add("%s: kind %s, want %s", name, g.Kind, w.Kind)
		}
		if g.Description != w.Description {
			add("%s: description %q, want %q", name, g.Description, w.Description)
		}
		if !slices.Equal(sorted(g.Interfaces), sorted(w.Interfaces)) {
			add("%s: interfaces %v, want %v", name, g.Interfaces, w.Interfaces)
		}
		if !slices.Equal(sorted(g.Types), sorted(w.Types)) {
			add("%s: union members %v, want %v", name, g.Types, w.Types)
		}
		out = append(out, diffFields(name, g.Fields, w.Fields)...)
		out = append(out, diffEnum(name, g.EnumValues, w.EnumValues)...)
	}
	return out
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	sort.Strings(s)
	return s
}

func diffFields(typeName string, got, want ast.FieldList) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	for _, w := range want {
		if len(w.Name) > 1 && w.Name[:2] == "__" {
			continue
		}
		g := got.ForName(w.Name)
		if g == nil {
			add("%s.%s: missing", typeName, w.Name)
			continue
		}
		where := typeName + "." + w.Name
		if g.Type.String() != w.Type.String() {
			add("%s: type %s, want %s", where, g.Type, w.Type)
		}
		if g.Description != w.Description {
			add("%s: description %q, want %q", where, g.Description, w.Description)
		}
		if dv(g.DefaultValue) != dv(w.DefaultValue) {
			add("%s: default %s, want %s", where, dv(g.DefaultValue), dv(w.DefaultValue))
		}
		if dep(g.Directives) != dep(w.Directives) {
			add("%s: deprecation %q, want %q", where, dep(g.Directives), dep(w.Directives))
		}
		for _, wa := range w.Arguments {
			ga := g.Arguments.ForName(wa.Name)
			if ga == nil {
				add("%s(%s): missing", where, wa.Name)
				continue
			}
			if ga.Type.String() != wa.Type.String() || ga.Description != wa.Description || dv(ga.DefaultValue) != dv(wa.DefaultValue) {
				add("%s(%s): %s %q = %s, want %s %q = %s", where, wa.Name,
					ga.Type, ga.Description, dv(ga.DefaultValue), wa.Type, wa.Description, dv(wa.DefaultValue))
			}
		}
		if len(g.Arguments) != len(w.Arguments) {
			add("%s: %d arguments, want %d", where, len(g.Arguments), len(w.Arguments))
		}
	}
	for _, g := range got {
		if len(g.Name) > 1 && g.Name[:2] == "__" {
			continue
		}
		if want.ForName(g.Name) == nil {
			add("%s.%s: not in the wanted schema", typeName, g.Name)
		}
	}
	fieldNames := func(l ast.FieldList) []string {
		var n []string
		for _, f := range l {
			if len(f.Name) < 2 || f.Name[:2] != "__" {
				n = append(n, f.Name)
			}
		}
		return n
	}
	if g, w := fieldNames(got), fieldNames(want); len(out) == 0 && !slices.Equal(g, w) {
		add("%s: fields in the order %v, want %v", typeName, g, w)
	}
	for _, w := range want {
		if g := got.ForName(w.Name); g != nil && len(g.Arguments) == len(w.Arguments) {
			for i := range w.Arguments {
				if g.Arguments[i].Name != w.Arguments[i].Name {
					add("%s.%s: arguments out of order", typeName, w.Name)
					break
				}
			}
		}
	}
	return out
}

func diffEnum(typeName string, got, want ast.EnumValueList) []string {
	var out []string
	for _, w := range want {
		g := got.ForName(w.Name)
		switch {
		case g == nil:
			out = append(out, fmt.Sprintf("%s.%s: missing enum value", typeName, w.Name))
		case g.Description != w.Description:
			out = append(out, fmt.Sprintf("%s.%s: description %q, want %q", typeName, w.Name, g.Description, w.Description))
		case dep(g.Directives) != dep(w.Directives):
			out = append(out, fmt.Sprintf("%s.%s: deprecation %q, want %q", typeName, w.Name, dep(g.Directives), dep(w.Directives)))
		}
	}
	if len(got) != len(want) {
		out = append(out, fmt.Sprintf("%s: %d enum values, want %d", typeName, len(got), len(want)))
	} else {
		for i := range want {
			if got[i].Name != want[i].Name {
				out = append(out, fmt.Sprintf("%s: enum values out of order", typeName))
				break
			}
		}
	}
	return out
}

func dv(v *ast.Value) string {
	if v == nil {
		return "<none>"
	}
	return v.String()
}

func dep(dirs ast.DirectiveList) string {
	d := dirs.ForName("deprecated")
	if d == nil {
		return "<not deprecated>"
	}
	if a := d.Arguments.ForName("reason"); a != nil {
		return a.Value.Raw
	}
	return "No longer supported"
}
