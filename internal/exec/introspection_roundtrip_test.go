package exec

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/workload"

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
		return string(gqlerr.AppendResponse(nil, errs, nil))
	}
	op, gerr := doc.Operation("")
	if gerr != nil {
		t.Fatalf("operation: %v", gerr)
	}
	coerced, errs := e.CoerceVariables(op, vars)
	if errs != nil {
		return string(gqlerr.AppendResponse(nil, errs, nil))
	}
	return string(e.Execute(context.Background(), op, coerced, nil, nil))
}

func TestIntrospectionRoundTrip(t *testing.T) {
	q4, err := workload.ReadFile("q4.graphql")
	if err != nil {
		t.Fatalf("read q4: %v", err)
	}
	tests := []struct {
		name, sdl, query string
	}{
		{"full query, every feature", richSDL, fullIntrospection},
		{"standard query, blog schema", workload.SDL, string(q4)},
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
