package exec

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// richSDL uses every feature introspection describes.
const richSDL = `
"The root of all queries."
type Query {
  "The hero."
  hero(episode: Episode = NEWHOPE, "a filter" filter: Filter = {tags: ["a", "b"], limit: 3}): Character
  search(text: String!, old: Int @deprecated(reason: "use text")): [SearchResult!]!
  when: DateTime
  legacy: String @deprecated
}

type Mutation {
  rate(stars: Int! = 5): Boolean!
}

"A moment, in RFC 3339."
scalar DateTime @specifiedBy(url: "https://tools.ietf.org/html/rfc3339")

enum Episode {
  "Episode IV."
  NEWHOPE
  EMPIRE
  JEDI @deprecated(reason: "not yet \"released\"")
}

input Filter {
  tags: [String!] = []
  limit: Int = 10
  nested: Nested
  old: Boolean @deprecated(reason: "gone")
}

input Nested @oneOf {
  a: Int
  b: String
}

interface Node {
  id: ID!
}

interface Character implements Node {
  id: ID!
  name: String!
  friends: [Character]
}

type Human implements Character & Node {
  id: ID!
  name: String!
  friends: [Character]
  homePlanet: String
}

type Droid implements Character & Node {
  id: ID!
  name: String!
  friends: [Character]
  primaryFunction: String
}

union SearchResult = Human | Droid

"Marks a field as cached."
directive @cached(ttl: Int = 60) repeatable on FIELD_DEFINITION | OBJECT
`

// fullIntrospection is the standard query extended with what newer
// clients ask for: specifiedByURL, isRepeatable, isOneOf and deprecated
// arguments and input fields.
const fullIntrospection = `query Full {
  __schema {
    description
    queryType { name kind } mutationType { name kind } subscriptionType { name kind }
    types { ...FullType }
    directives { name description isRepeatable locations args(includeDeprecated: true) { ...InputValue } }
  }
}
fragment FullType on __Type {
  kind name description specifiedByURL isOneOf
  fields(includeDeprecated: true) { name description args(includeDeprecated: true) { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
  inputFields(includeDeprecated: true) { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue isDeprecated deprecationReason }
fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } }
`

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

// describeSchema prints the user-defined part of a schema in a canonical
// form, for comparing two schemas.
func describeSchema(s *ast.Schema) string {
	var b strings.Builder
	dep := func(dirs ast.DirectiveList) string {
		d := dirs.ForName("deprecated")
		if d == nil {
			return ""
		}
		if a := d.Arguments.ForName("reason"); a != nil {
			return " deprecated(" + a.Value.Raw + ")"
		}
		return " deprecated(No longer supported)"
	}
	args := func(list ast.ArgumentDefinitionList) {
		for _, a := range list {
			def := ""
			if a.DefaultValue != nil {
				def = " = " + printLiteral(a.DefaultValue)
			}
			fmt.Fprintf(&b, "    arg %s: %s%s %q%s\n", a.Name, a.Type.String(), def, a.Description, dep(a.Directives))
		}
	}
	fmt.Fprintf(&b, "query %s\n", s.Query.Name)
	if s.Mutation != nil {
		fmt.Fprintf(&b, "mutation %s\n", s.Mutation.Name)
	}
	var names []string
	for n := range s.Types {
		if !strings.HasPrefix(n, "__") && !builtinScalars[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		t := s.Types[n]
		fmt.Fprintf(&b, "%s %s %q implements %v\n", t.Kind, t.Name, t.Description, t.Interfaces)
		if d := t.Directives.ForName("specifiedBy"); d != nil {
			fmt.Fprintf(&b, "  specifiedBy %s\n", d.Arguments.ForName("url").Value.Raw)
		}
		if t.Directives.ForName("oneOf") != nil {
			b.WriteString("  oneOf\n")
		}
		for _, f := range t.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			def := ""
			if f.DefaultValue != nil {
				def = " = " + printLiteral(f.DefaultValue)
			}
			fmt.Fprintf(&b, "  field %s: %s%s %q%s\n", f.Name, f.Type.String(), def, f.Description, dep(f.Directives))
			args(f.Arguments)
		}
		var possible []string
		for _, p := range s.PossibleTypes[n] {
			possible = append(possible, p.Name)
		}
		sort.Strings(possible)
		if t.Kind != ast.Object {
			fmt.Fprintf(&b, "  possible %v\n", possible)
		}
		for _, v := range t.EnumValues {
			fmt.Fprintf(&b, "  value %s %q%s\n", v.Name, v.Description, dep(v.Directives))
		}
	}
	var dirs []string
	for n := range s.Directives {
		if !builtinDirectives[n] {
			dirs = append(dirs, n)
		}
	}
	sort.Strings(dirs)
	for _, n := range dirs {
		d := s.Directives[n]
		fmt.Fprintf(&b, "directive %s %q repeatable=%v on %v\n", d.Name, d.Description, d.IsRepeatable, d.Locations)
		args(d.Arguments)
	}
	return b.String()
}

func loadSDL(t testing.TB, sdl string) *ast.Schema {
	t.Helper()
	s, err := gqlparser.LoadSchema(&ast.Source{Name: "schema.graphql", Input: sdl})
	if err != nil {
		t.Fatalf("load schema: %v", err)
	}
	return s
}

// runQuery prepares and executes query with raw variables on e.
func runQuery(t testing.TB, e *Engine, query string, vars map[string]any) string {
	t.Helper()
	doc, errs := e.Prepare(query)
	if errs != nil {
		return string(AppendErrorResponse(nil, errs, nil))
	}
	op, gerr := doc.Operation("")
	if gerr != nil {
		t.Fatalf("operation: %v", gerr)
	}
	coerced, errs := e.CoerceVariables(op, vars)
	if errs != nil {
		return string(AppendErrorResponse(nil, errs, nil))
	}
	return string(e.Execute(context.Background(), op, coerced, nil, nil))
}

func TestIntrospectionRoundTrip(t *testing.T) {
	q4, err := os.ReadFile("testdata/q4.graphql")
	if err != nil {
		t.Fatalf("read q4: %v", err)
	}
	tests := []struct {
		name, sdl, query string
	}{
		{"full query, every feature", richSDL, fullIntrospection},
		{"standard query, blog schema", blogSDL, string(q4)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			orig := loadSDL(t, tc.sdl)
			e := newEngine(orig, nil, nil, nil, Options{})
			body := runQuery(t, e, tc.query, nil)
			var resp struct {
				Errors []any
				Data   struct {
					Schema iSchema `json:"__schema"`
				}
			}
			if err := json.Unmarshal([]byte(body), &resp); err != nil {
				t.Fatalf("decode %s: %v", body, err)
			}
			if len(resp.Errors) > 0 {
				t.Fatalf("errors: %v", resp.Errors)
			}
			sdl := introspectionToSDL(resp.Data.Schema)
			rebuilt := loadSDL(t, sdl)
			if got, want := describeSchema(rebuilt), describeSchema(orig); got != want {
				t.Errorf("rebuilt schema differs\n--- rebuilt SDL:\n%s\n--- got:\n%s\n--- want:\n%s", sdl, got, want)
			}
		})
	}
}

const blogSDL = `type Query {
  hello: String!
  authors(first: Int = 10): [Author!]!
  author(id: ID!): Author
}

type Author {
  id: ID!
  name: String!
  email: String!
  posts(first: Int = 10): [Post!]!
}

type Post {
  id: ID!
  title: String!
  body: String!
  likes: Int!
  tags: [String!]!
}
`
