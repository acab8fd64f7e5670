package exec

import (
	"sort"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// introType is a __Type: a named definition, or a list or non-null
// wrapper given by wrap.
type introType struct {
	def  *ast.Definition
	wrap *ast.Type
}

// introVal is the value of an introspection object; the field used depends
// on the object's type.
type introVal struct {
	typ   introType
	field *ast.FieldDefinition
	input *ast.ArgumentDefinition
	enum  *ast.EnumValueDefinition
	dir   *ast.DirectiveDefinition
}

// introIndex holds the schema's types and directives in the order
// graphql-js lists them.
type introIndex struct {
	types      []*ast.Definition
	directives []*ast.DirectiveDefinition
	// deprecated holds the reasons of the deprecated directives, by name
	// (SDL has no syntax for them: they come from DirectiveDef).
	deprecated map[string]string
}

// builtIn reports whether a definition comes from gqlparser's prelude.
func builtIn(p *ast.Position) bool {
	return p == nil || p.Src == nil || p.Src.BuiltIn
}

// bySource orders definitions as their source defines them.
func bySource(a, b *ast.Position) bool {
	if a.Src.Name != b.Src.Name {
		return a.Src.Name < b.Src.Name
	}
	return a.Start < b.Start
}

// specifiedDirectives are the directives graphql-js 16 defines, in its
// order. gqlparser's prelude also declares @defer, which graft does not
// implement, so it is not listed.
var specifiedDirectives = []string{"include", "skip", "deprecated", "specifiedBy", "oneOf"}

// newIntroIndex orders the types as graphql-js's GraphQLSchema collects
// them from a schema built from SDL: each type the SDL defines, in source
// order, moved behind the types collected so far and followed by the types
// it references (fields, arguments, interfaces, union members, input
// fields) that are not collected yet; then the root types, the types of
// directive arguments and the introspection types. Built-in scalars the
// schema never references are not listed, as in graphql-js. Directives
// are the schema's own in source order, then the specified ones.
func newIntroIndex(s *ast.Schema) introIndex {
	var ix introIndex
	var defined []*ast.Definition
	for _, t := range s.Types {
		if !builtIn(t.Position) {
			defined = append(defined, t)
		}
	}
	sort.Slice(defined, func(i, j int) bool { return bySource(defined[i].Position, defined[j].Position) })
	c := &typeCollector{s: s, pos: map[string]int{}}
	for _, t := range defined {
		c.add(t)
	}
	for _, t := range defined {
		c.remove(t.Name)
		c.collect(t)
	}
	for _, t := range []*ast.Definition{s.Query, s.Mutation, s.Subscription} {
		if t != nil {
			c.collect(t)
		}
	}
	var custom []*ast.DirectiveDefinition
	for _, d := range s.Directives {
		if !builtIn(d.Position) {
			custom = append(custom, d)
		}
	}
	sort.Slice(custom, func(i, j int) bool { return bySource(custom[i].Position, custom[j].Position) })
	for _, name := range specifiedDirectives {
		if d := s.Directives[name]; d != nil && builtIn(d.Position) {
			custom = append(custom, d)
		}
	}
	ix.directives = custom
	for _, d := range ix.directives {
		for _, a := range d.Arguments {
			c.collectRef(a.Type)
		}
	}
	c.collectName("__Schema")
	for _, t := range c.order {
		if t != nil {
			ix.types = append(ix.types, t)
		}
	}
	return ix
}

// typeCollector is an insertion-ordered set of types, as graphql-js's Set.
type typeCollector struct {
	s     *ast.Schema
	order []*ast.Definition
	pos   map[string]int
}

func (c *typeCollector) add(t *ast.Definition) {
	c.pos[t.Name] = len(c.order)
	c.order = append(c.order, t)
}

func (c *typeCollector) remove(name string) {
	if i, ok := c.pos[name]; ok {
		c.order[i] = nil
		delete(c.pos, name)
	}
}

func (c *typeCollector) collectName(name string) {
	if t := c.s.Types[name]; t != nil {
		c.collect(t)
	}
}

func (c *typeCollector) collectRef(t *ast.Type) {
	if t != nil {
		c.collectName(t.Name())
	}
}

// collect adds t and, depth first, the types it references.
func (c *typeCollector) collect(t *ast.Definition) {
	if _, ok := c.pos[t.Name]; ok {
		return
	}
	c.add(t)
	switch t.Kind {
	case ast.Union:
		for _, m := range t.Types {
			c.collectName(m)
		}
	case ast.Object, ast.Interface:
		for _, i := range t.Interfaces {
			c.collectName(i)
		}
		for _, f := range t.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue // __schema and __type, which gqlparser adds to the query type
			}
			c.collectRef(f.Type)
			for _, a := range f.Arguments {
				c.collectRef(a.Type)
			}
		}
	case ast.InputObject:
		for _, f := range t.Fields {
			c.collectRef(f.Type)
		}
	}
}

// scalarDescriptions are graphql-js 16's descriptions of the built-in
// scalars, which gqlparser's prelude words slightly differently.
var scalarDescriptions = map[string]string{
	"String":  "The `String` scalar type represents textual data, represented as UTF-8 character sequences. The String type is most often used by GraphQL to represent free-form human-readable text.",
	"Int":     "The `Int` scalar type represents non-fractional signed whole numeric values. Int can represent values between -(2^31) and 2^31 - 1.",
	"Float":   "The `Float` scalar type represents signed double-precision fractional values as specified by [IEEE 754](https://en.wikipedia.org/wiki/IEEE_floating_point).",
	"Boolean": "The `Boolean` scalar type represents `true` or `false`.",
	"ID":      "The `ID` scalar type represents a unique identifier, often used to refetch an object or as key for a cache. The ID type appears in a JSON response as a String; however, it is not intended to be human-readable. When expected as an input type, any string (such as `\"4\"`) or integer (such as `4`) input value will be accepted as an ID.",
}

// writeIntroSchema writes the __schema root field. __schema is non-null:
// false makes the root null.
func (r *request) writeIntroSchema(f *fieldPlan) bool {
	return r.writeIntroObject(f, "__Schema", &introVal{})
}

// writeIntroTypeField writes the __type(name:) root field, null when the
// type is unknown or could not be written.
func (r *request) writeIntroTypeField(f *fieldPlan) bool {
	name, _ := f.ast.ArgumentMap(r.vars)["name"].(string)
	def := r.e.ast.Types[name]
	if def == nil {
		r.buf = append(r.buf, "null"...)
		return true
	}
	start := len(r.buf)
	if !r.writeIntroObject(f, "__Type", &introVal{typ: introType{def: def}}) {
		r.buf = append(r.buf[:start], "null"...)
	}
	return true
}

// typeRef returns the __Type of a type reference.
func (r *request) typeRef(t *ast.Type) introType {
	if t.NonNull || t.Elem != nil {
		return introType{wrap: t}
	}
	return introType{def: r.e.ast.Types[t.NamedType]}
}

// writeIntroObject writes the introspection object v of type typeName, the
// value of the field parent, as ordinary objects are written: the response
// budget and the request's context are checked before each object, each
// field's path is kept for errors, and a field that cannot be completed
// becomes null, or makes the object fail when the field is non-null. It
// reports false when the object failed; the error is already recorded.
func (r *request) writeIntroObject(parent *fieldPlan, typeName string, v *introVal) bool {
	if r.introStopped(parent) {
		return false
	}
	op := parent.sub.forType(typeName)
	r.buf = append(r.buf, '{')
	first := true
	for _, f := range op.fields {
		if f.conds != nil && !included(f.conds, r.vars) {
			continue
		}
		if first {
			r.buf = append(r.buf, f.keyJSON[1:]...)
			first = false
		} else {
			r.buf = append(r.buf, f.keyJSON...)
		}
		if f.kind == kindTypename {
			r.buf = appendString(r.buf, typeName)
			continue
		}
		start := len(r.buf)
		r.path = append(r.path, pathElem{key: f.key, index: -1})
		ok := true
		switch typeName {
		case "__Schema":
			ok = r.writeSchemaField(f)
		case "__Type":
			ok = r.writeTypeField(f, v.typ)
		case "__Field":
			ok = r.writeFieldField(f, v.field)
		case "__InputValue":
			ok = r.writeInputValueField(f, v.input)
		case "__EnumValue":
			r.writeEnumValueField(f, v.enum)
		case "__Directive":
			ok = r.writeDirectiveField(f, v.dir)
		default:
			r.buf = append(r.buf, "null"...)
		}
		r.path = r.path[:len(r.path)-1]
		if !ok {
			if !introNullable(f) {
				return false
			}
			r.buf = append(r.buf[:start], "null"...)
		}
	}
	r.buf = append(r.buf, '}')
	return true
}

// introNullable reports whether the introspection field f may be null.
func introNullable(f *fieldPlan) bool {
	return f.ast != nil && f.ast.Definition != nil && f.ast.Definition.Type != nil && !f.ast.Definition.Type.NonNull
}

// writeIntroList writes n introspection objects of type typeName, the
// items of the list field f. Introspection lists hold non-null items, so
// an item that fails makes the list fail.
func (r *request) writeIntroList(f *fieldPlan, typeName string, n int, item func(i int) *introVal) bool {
	r.buf = append(r.buf, '[')
	for i := 0; i < n; i++ {
		if i > 0 {
			r.buf = append(r.buf, ',')
		}
		r.path = append(r.path, pathElem{index: i})
		ok := r.writeIntroObject(f, typeName, item(i))
		r.path = r.path[:len(r.path)-1]
		if !ok {
			return false
		}
	}
	r.buf = append(r.buf, ']')
	return true
}

func (r *request) writeSchemaField(f *fieldPlan) bool {
	s := r.e.ast
	switch f.name {
	case "description":
		r.buf = appendNullableString(r.buf, s.Description)
	case "types":
		types := r.e.intro.types
		return r.writeIntroList(f, "__Type", len(types), func(i int) *introVal {
			return &introVal{typ: introType{def: types[i]}}
		})
	case "queryType":
		return r.writeNamedType(f, s.Query)
	case "mutationType":
		return r.writeNamedType(f, s.Mutation)
	case "subscriptionType":
		return r.writeNamedType(f, s.Subscription)
	case "directives":
		dirs := r.e.intro.directives
		if dep := r.e.intro.deprecated; len(dep) > 0 && !r.includeDeprecated(f) {
			var kept []*ast.DirectiveDefinition
			for _, d := range dirs {
				if _, ok := dep[d.Name]; !ok {
					kept = append(kept, d)
				}
			}
			dirs = kept
		}
		return r.writeIntroList(f, "__Directive", len(dirs), func(i int) *introVal {
			return &introVal{dir: dirs[i]}
		})
	default:
		r.buf = append(r.buf, "null"...)
	}
	return true
}

// writeNamedType writes def as a __Type, or null.
func (r *request) writeNamedType(f *fieldPlan, def *ast.Definition) bool {
	if def == nil {
		r.buf = append(r.buf, "null"...)
		return true
	}
	return r.writeIntroObject(f, "__Type", &introVal{typ: introType{def: def}})
}

// includeDeprecated reads the includeDeprecated argument of f.
func (r *request) includeDeprecated(f *fieldPlan) bool {
	b, _ := f.ast.ArgumentMap(r.vars)["includeDeprecated"].(bool)
	return b
}

func (r *request) writeTypeField(f *fieldPlan, t introType) bool {
	if t.wrap != nil {
		switch f.name {
		case "kind":
			if t.wrap.NonNull {
				r.buf = append(r.buf, `"NON_NULL"`...)
			} else {
				r.buf = append(r.buf, `"LIST"`...)
			}
		case "ofType":
			inner := t.wrap.Elem
			if t.wrap.NonNull {
				cp := *t.wrap
				cp.NonNull = false
				inner = &cp
			}
			return r.writeIntroObject(f, "__Type", &introVal{typ: r.typeRef(inner)})
		default:
			r.buf = append(r.buf, "null"...)
		}
		return true
	}
	d := t.def
	switch f.name {
	case "kind":
		r.buf = appendString(r.buf, string(d.Kind))
	case "name":
		r.buf = appendString(r.buf, d.Name)
	case "description":
		desc := d.Description
		if ref, ok := scalarDescriptions[d.Name]; ok && builtIn(d.Position) {
			desc = ref
		}
		r.buf = appendNullableString(r.buf, desc)
	case "specifiedByURL":
		url := ""
		if dir := d.Directives.ForName("specifiedBy"); dir != nil && d.Kind == ast.Scalar {
			if a := dir.Arguments.ForName("url"); a != nil && a.Value != nil {
				url = a.Value.Raw
			}
		}
		r.buf = appendNullableString(r.buf, url)
	case "fields":
		if d.Kind != ast.Object && d.Kind != ast.Interface {
			r.buf = append(r.buf, "null"...)
			return true
		}
		all := r.includeDeprecated(f)
		var fields []*ast.FieldDefinition
		for _, fd := range d.Fields {
			if strings.HasPrefix(fd.Name, "__") || (!all && fd.Directives.ForName("deprecated") != nil) {
				continue
			}
			fields = append(fields, fd)
		}
		return r.writeIntroList(f, "__Field", len(fields), func(i int) *introVal { return &introVal{field: fields[i]} })
	case "interfaces":
		if d.Kind != ast.Object && d.Kind != ast.Interface {
			r.buf = append(r.buf, "null"...)
			return true
		}
		return r.writeIntroList(f, "__Type", len(d.Interfaces), func(i int) *introVal {
			return &introVal{typ: introType{def: r.e.ast.Types[d.Interfaces[i]]}}
		})
	case "possibleTypes":
		if d.Kind != ast.Interface && d.Kind != ast.Union {
			r.buf = append(r.buf, "null"...)
			return true
		}
		possible := r.e.ast.GetPossibleTypes(d)
		return r.writeIntroList(f, "__Type", len(possible), func(i int) *introVal {
			return &introVal{typ: introType{def: possible[i]}}
		})
	case "enumValues":
		if d.Kind != ast.Enum {
			r.buf = append(r.buf, "null"...)
			return true
		}
		all := r.includeDeprecated(f)
		var values []*ast.EnumValueDefinition
		for _, ev := range d.EnumValues {
			if all || ev.Directives.ForName("deprecated") == nil {
				values = append(values, ev)
			}
		}
		return r.writeIntroList(f, "__EnumValue", len(values), func(i int) *introVal { return &introVal{enum: values[i]} })
	case "inputFields":
		if d.Kind != ast.InputObject {
			r.buf = append(r.buf, "null"...)
			return true
		}
		all := r.includeDeprecated(f)
		var inputs []*ast.ArgumentDefinition
		for _, fd := range d.Fields {
			if all || fd.Directives.ForName("deprecated") == nil {
				inputs = append(inputs, &ast.ArgumentDefinition{
					Description: fd.Description, Name: fd.Name, DefaultValue: fd.DefaultValue,
					Type: fd.Type, Directives: fd.Directives,
				})
			}
		}
		return r.writeIntroList(f, "__InputValue", len(inputs), func(i int) *introVal { return &introVal{input: inputs[i]} })
	case "isOneOf":
		if d.Kind != ast.InputObject {
			r.buf = append(r.buf, "null"...)
			return true
		}
		r.buf = appendBool(r.buf, d.Directives.ForName("oneOf") != nil)
	default:
		r.buf = append(r.buf, "null"...)
	}
	return true
}

func appendNullableString(buf []byte, s string) []byte {
	if s == "" {
		return append(buf, "null"...)
	}
	return appendString(buf, s)
}

func appendBool(buf []byte, b bool) []byte {
	if b {
		return append(buf, "true"...)
	}
	return append(buf, "false"...)
}
