package schemadef

import (
	"github.com/graftgql/graft/internal/gqlsyntax"
	"strconv"
	"strings"
)

var builtinScalars = map[string]bool{"Boolean": true, "Float": true, "ID": true, "Int": true, "String": true}

// printSDL prints the schema: the types in name order, the root types
// named Query, Mutation and Subscription so no schema definition is needed. Fields,
// arguments, enum values and input fields keep their declaration order.
func printSDL(s *Schema) string {
	var w strings.Builder
	w.WriteString(sdlRootDefinition(s))
	first := true
	for _, t := range s.Types {
		if builtinScalars[t.Name] {
			continue
		}
		if !first {
			w.WriteByte('\n')
		}
		first = false
		printType(&w, t, s.inSchemaSDL)
	}
	printDirectiveDefs(&w, s.Directives, first, false)
	return w.String()
}

// printType prints the type t, with the applied directives show accepts.
func printType(w *strings.Builder, t *Type, show func(name string) bool) {
	printDescription(w, t.Description, "")
	switch t.Kind {
	case ScalarKind:
		w.WriteString("scalar " + t.Name)
		if t.SpecifiedByURL != "" {
			w.WriteString(" @specifiedBy(url: " + strconv.Quote(t.SpecifiedByURL) + ")")
		}
		w.WriteByte('\n')
	case ObjectKind, InterfaceKind:
		if t.Kind == ObjectKind {
			w.WriteString("type " + t.Name)
		} else {
			w.WriteString("interface " + t.Name)
		}
		for i, it := range t.Interfaces {
			if i == 0 {
				w.WriteString(" implements ")
			} else {
				w.WriteString(" & ")
			}
			w.WriteString(it.Name)
		}
		printApplied(w, t.Directives, show)
		w.WriteString(" {\n")
		for _, f := range t.Fields {
			printDescription(w, f.Description, "  ")
			w.WriteString("  " + f.Name)
			printArgs(w, f.Args)
			w.WriteString(": " + f.Type.String())
			printDeprecated(w, f.Deprecated, f.DeprecationReason)
			printApplied(w, f.Directives, show)
			w.WriteByte('\n')
		}
		w.WriteString("}\n")
	case UnionKind:
		w.WriteString("union " + t.Name + " =")
		for i, m := range t.PossibleTypes {
			if i > 0 {
				w.WriteString(" |")
			}
			w.WriteString(" " + m.Name)
		}
		w.WriteByte('\n')
	case EnumKind:
		w.WriteString("enum " + t.Name + " {\n")
		for _, v := range t.EnumValues {
			printDescription(w, v.Description, "  ")
			w.WriteString("  " + v.Name)
			printDeprecated(w, v.Deprecated, v.DeprecationReason)
			w.WriteByte('\n')
		}
		w.WriteString("}\n")
	case InputObjectKind:
		w.WriteString("input " + t.Name + " {\n")
		for _, f := range t.InputFields {
			printDescription(w, f.Description, "  ")
			w.WriteString("  ")
			printArg(w, f)
			w.WriteByte('\n')
		}
		w.WriteString("}\n")
	}
}

func printArgs(w *strings.Builder, args []*Argument) {
	if len(args) == 0 {
		return
	}
	described := false
	for _, a := range args {
		described = described || a.Description != ""
	}
	if !described {
		w.WriteByte('(')
		for i, a := range args {
			if i > 0 {
				w.WriteString(", ")
			}
			printArg(w, a)
		}
		w.WriteByte(')')
		return
	}
	w.WriteString("(\n")
	for _, a := range args {
		printDescription(w, a.Description, "    ")
		w.WriteString("    ")
		printArg(w, a)
		w.WriteByte('\n')
	}
	w.WriteString("  )")
}

func printArg(w *strings.Builder, a *Argument) {
	w.WriteString(a.Name + ": " + a.Type.String())
	if a.DefaultValue != nil {
		w.WriteString(" = " + a.DefaultValue.String())
	}
	printDeprecated(w, a.Deprecated, a.DeprecationReason)
	printApplied(w, a.Directives, func(string) bool { return true })
}

func printDeprecated(w *strings.Builder, deprecated bool, reason string) {
	if !deprecated {
		return
	}
	w.WriteString(" @deprecated")
	if reason != "" && reason != DefaultDeprecationReason {
		w.WriteString("(reason: " + gqlsyntax.Quote(reason) + ")")
	}
}

// printDescription prints a description as a block string, or as a quoted
// string when block string syntax cannot carry it unchanged.
func printDescription(w *strings.Builder, desc, indent string) {
	if desc == "" {
		return
	}
	w.WriteString(indent)
	if strings.Contains(desc, `"""`) || strings.ContainsAny(desc, "\r\\") ||
		strings.HasPrefix(desc, " ") || strings.HasPrefix(desc, "\t") || strings.HasSuffix(desc, `"`) ||
		strings.Contains(desc, "\n") {
		w.WriteString(gqlsyntax.Quote(desc) + "\n")
		return
	}
	w.WriteString(`"""` + desc + `"""` + "\n")
}
