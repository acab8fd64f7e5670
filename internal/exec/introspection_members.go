package exec

import (
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// Writers of the introspection objects below __Type: __Field,
// __InputValue, __EnumValue and __Directive, and the printing of default
// values.

// writeArgs writes a list of arguments as __InputValue objects.
func (r *request) writeArgs(f *fieldPlan, args ast.ArgumentDefinitionList) bool {
	all := r.includeDeprecated(f)
	var list []*ast.ArgumentDefinition
	for _, a := range args {
		if all || a.Directives.ForName("deprecated") == nil {
			list = append(list, a)
		}
	}
	return r.writeIntroList(f, "__InputValue", len(list), func(i int) *introVal { return &introVal{input: list[i]} })
}

func (r *request) writeFieldField(f *fieldPlan, fd *ast.FieldDefinition) bool {
	switch f.name {
	case "name":
		r.buf = appendString(r.buf, fd.Name)
	case "description":
		r.buf = appendNullableString(r.buf, fd.Description)
	case "args":
		return r.writeArgs(f, fd.Arguments)
	case "type":
		return r.writeIntroObject(f, "__Type", &introVal{typ: r.typeRef(fd.Type)})
	case "isDeprecated", "deprecationReason":
		r.writeDeprecation(f, fd.Directives)
	default:
		r.buf = append(r.buf, "null"...)
	}
	return true
}

func (r *request) writeInputValueField(f *fieldPlan, a *ast.ArgumentDefinition) bool {
	switch f.name {
	case "name":
		r.buf = appendString(r.buf, a.Name)
	case "description":
		r.buf = appendNullableString(r.buf, a.Description)
	case "type":
		return r.writeIntroObject(f, "__Type", &introVal{typ: r.typeRef(a.Type)})
	case "defaultValue":
		if a.DefaultValue == nil {
			r.buf = append(r.buf, "null"...)
			return true
		}
		r.buf = appendString(r.buf, printLiteral(a.DefaultValue))
	case "isDeprecated", "deprecationReason":
		r.writeDeprecation(f, a.Directives)
	default:
		r.buf = append(r.buf, "null"...)
	}
	return true
}

func (r *request) writeEnumValueField(f *fieldPlan, ev *ast.EnumValueDefinition) {
	switch f.name {
	case "name":
		r.buf = appendString(r.buf, ev.Name)
	case "description":
		r.buf = appendNullableString(r.buf, ev.Description)
	case "isDeprecated", "deprecationReason":
		r.writeDeprecation(f, ev.Directives)
	default:
		r.buf = append(r.buf, "null"...)
	}
}

func (r *request) writeDirectiveField(f *fieldPlan, d *ast.DirectiveDefinition) bool {
	switch f.name {
	case "name":
		r.buf = appendString(r.buf, d.Name)
	case "description":
		r.buf = appendNullableString(r.buf, d.Description)
	case "isRepeatable":
		r.buf = appendBool(r.buf, d.IsRepeatable)
	case "locations":
		r.buf = append(r.buf, '[')
		for i, l := range d.Locations {
			if i > 0 {
				r.buf = append(r.buf, ',')
			}
			r.buf = appendString(r.buf, string(l))
		}
		r.buf = append(r.buf, ']')
	case "args":
		return r.writeArgs(f, d.Arguments)
	case "isDeprecated":
		_, dep := r.e.intro.deprecated[d.Name]
		r.buf = appendBool(r.buf, dep)
	case "deprecationReason":
		if reason, ok := r.e.intro.deprecated[d.Name]; ok {
			r.buf = appendString(r.buf, reason)
		} else {
			r.buf = append(r.buf, "null"...)
		}
	default:
		r.buf = append(r.buf, "null"...)
	}
	return true
}

// writeDeprecation writes isDeprecated or deprecationReason from the
// @deprecated directive in dirs.
func (r *request) writeDeprecation(f *fieldPlan, dirs ast.DirectiveList) {
	d := dirs.ForName("deprecated")
	if f.name == "isDeprecated" {
		r.buf = appendBool(r.buf, d != nil)
		return
	}
	if d == nil {
		r.buf = append(r.buf, "null"...)
		return
	}
	reason := "No longer supported"
	if a := d.Arguments.ForName("reason"); a != nil && a.Value != nil && a.Value.Kind != ast.NullValue {
		reason = a.Value.Raw
	}
	r.buf = appendString(r.buf, reason)
}

// printLiteral prints a constant value in GraphQL syntax, as graphql-js
// prints default values.
func printLiteral(v *ast.Value) string {
	var b strings.Builder
	writeLiteral(&b, v)
	return b.String()
}

func writeLiteral(b *strings.Builder, v *ast.Value) {
	switch v.Kind {
	case ast.ListValue:
		b.WriteByte('[')
		for i, c := range v.Children {
			if i > 0 {
				b.WriteString(", ")
			}
			writeLiteral(b, c.Value)
		}
		b.WriteByte(']')
	case ast.ObjectValue:
		b.WriteByte('{')
		for i, c := range v.Children {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(c.Name)
			b.WriteString(": ")
			writeLiteral(b, c.Value)
		}
		b.WriteByte('}')
	case ast.BlockValue:
		cp := *v
		cp.Kind = ast.StringValue
		b.WriteString(cp.String())
	default:
		b.WriteString(v.String())
	}
}
