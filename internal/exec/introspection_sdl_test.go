package exec

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The decoded form of an introspection result, and its conversion back
// into SDL, for the round-trip test.

type iRef struct {
	Kind   string
	Name   *string
	OfType *iRef
}

type iInput struct {
	Name              string
	Description       *string
	Type              iRef
	DefaultValue      *string
	IsDeprecated      bool
	DeprecationReason *string
}

type iField struct {
	Name              string
	Description       *string
	Args              []iInput
	Type              iRef
	IsDeprecated      bool
	DeprecationReason *string
}

type iEnum struct {
	Name              string
	Description       *string
	IsDeprecated      bool
	DeprecationReason *string
}

type iType struct {
	Kind           string
	Name           string
	Description    *string
	SpecifiedByURL *string
	IsOneOf        *bool
	Fields         []iField
	InputFields    []iInput
	Interfaces     []iRef
	EnumValues     []iEnum
	PossibleTypes  []iRef
}

type iDirective struct {
	Name         string
	Description  *string
	IsRepeatable bool
	Locations    []string
	Args         []iInput
}

type iSchema struct {
	Description      *string
	QueryType        *iRef
	MutationType     *iRef
	SubscriptionType *iRef
	Types            []iType
	Directives       []iDirective
}

var builtinScalars = map[string]bool{"String": true, "Int": true, "Float": true, "Boolean": true, "ID": true}
var builtinDirectives = map[string]bool{"skip": true, "include": true, "deprecated": true, "specifiedBy": true, "oneOf": true, "defer": true}

// introspectionToSDL rebuilds SDL from an introspection result.
func introspectionToSDL(s iSchema) string {
	var b strings.Builder
	desc := func(d *string, indent string) {
		if d != nil && *d != "" {
			q, _ := json.Marshal(*d)
			fmt.Fprintf(&b, "%s%s\n", indent, q)
		}
	}
	var ref func(r iRef) string
	ref = func(r iRef) string {
		switch r.Kind {
		case "NON_NULL":
			return ref(*r.OfType) + "!"
		case "LIST":
			return "[" + ref(*r.OfType) + "]"
		}
		return *r.Name
	}
	deprecated := func(is bool, reason *string) string {
		if !is {
			return ""
		}
		q, _ := json.Marshal(*reason)
		return " @deprecated(reason: " + string(q) + ")"
	}
	inputs := func(args []iInput, indent string) {
		for _, a := range args {
			desc(a.Description, indent)
			fmt.Fprintf(&b, "%s%s: %s", indent, a.Name, ref(a.Type))
			if a.DefaultValue != nil {
				fmt.Fprintf(&b, " = %s", *a.DefaultValue)
			}
			b.WriteString(deprecated(a.IsDeprecated, a.DeprecationReason) + "\n")
		}
	}
	if s.Description != nil {
		desc(s.Description, "")
	}
	b.WriteString("schema {\n  query: " + *s.QueryType.Name + "\n")
	if s.MutationType != nil {
		b.WriteString("  mutation: " + *s.MutationType.Name + "\n")
	}
	b.WriteString("}\n")
	for _, t := range s.Types {
		if strings.HasPrefix(t.Name, "__") || builtinScalars[t.Name] {
			continue
		}
		desc(t.Description, "")
		switch t.Kind {
		case "SCALAR":
			fmt.Fprintf(&b, "scalar %s", t.Name)
			if t.SpecifiedByURL != nil {
				fmt.Fprintf(&b, " @specifiedBy(url: %q)", *t.SpecifiedByURL)
			}
			b.WriteString("\n")
		case "OBJECT", "INTERFACE":
			kw := map[string]string{"OBJECT": "type", "INTERFACE": "interface"}[t.Kind]
			fmt.Fprintf(&b, "%s %s", kw, t.Name)
			for i, in := range t.Interfaces {
				if i == 0 {
					b.WriteString(" implements ")
				} else {
					b.WriteString(" & ")
				}
				b.WriteString(*in.Name)
			}
			b.WriteString(" {\n")
			for _, f := range t.Fields {
				desc(f.Description, "  ")
				b.WriteString("  " + f.Name)
				if len(f.Args) > 0 {
					b.WriteString("(\n")
					inputs(f.Args, "    ")
					b.WriteString("  )")
				}
				b.WriteString(": " + ref(f.Type) + deprecated(f.IsDeprecated, f.DeprecationReason) + "\n")
			}
			b.WriteString("}\n")
		case "UNION":
			var names []string
			for _, p := range t.PossibleTypes {
				names = append(names, *p.Name)
			}
			fmt.Fprintf(&b, "union %s = %s\n", t.Name, strings.Join(names, " | "))
		case "ENUM":
			fmt.Fprintf(&b, "enum %s {\n", t.Name)
			for _, v := range t.EnumValues {
				desc(v.Description, "  ")
				b.WriteString("  " + v.Name + deprecated(v.IsDeprecated, v.DeprecationReason) + "\n")
			}
			b.WriteString("}\n")
		case "INPUT_OBJECT":
			fmt.Fprintf(&b, "input %s", t.Name)
			if t.IsOneOf != nil && *t.IsOneOf {
				b.WriteString(" @oneOf")
			}
			b.WriteString(" {\n")
			inputs(t.InputFields, "  ")
			b.WriteString("}\n")
		}
	}
	for _, d := range s.Directives {
		if builtinDirectives[d.Name] {
			continue
		}
		desc(d.Description, "")
		fmt.Fprintf(&b, "directive @%s", d.Name)
		if len(d.Args) > 0 {
			b.WriteString("(\n")
			inputs(d.Args, "  ")
			b.WriteString(")")
		}
		if d.IsRepeatable {
			b.WriteString(" repeatable")
		}
		b.WriteString(" on " + strings.Join(d.Locations, " | ") + "\n")
	}
	return b.String()
}
