package starwars

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/exec"
)

// The cases of graphql-js's starWarsValidation-test: documents the
// validator must accept or refuse against this schema.
func TestValidation(t *testing.T) {
	tests := []struct {
		name  string
		query string
		valid bool
	}{
		{"a complex but valid query", `query NestedQueryWithFragment { hero { ...NameAndAppearances friends { ...NameAndAppearances friends { ...NameAndAppearances } } } }
			fragment NameAndAppearances on Character { name appearsIn }`, true},
		{"a field that does not exist", `query HeroSpaceshipQuery { hero { favoriteSpaceship } }`, false},
		{"an object field without a selection", `query HeroNoFieldsQuery { hero }`, false},
		{"a selection on a scalar", `query HeroFieldsOnScalarQuery { hero { name { firstCharacterOfName } } }`, false},
		{"an object field on an interface", `query DroidFieldOnCharacter { hero { name primaryFunction } }`, false},
		{"an object field in an inline fragment", `query DroidFieldInFragment { hero { name ... on Droid { primaryFunction } } }`, true},
		{"an object field in a named fragment", `query DroidFieldInFragment { hero { name ...DroidFields } } fragment DroidFields on Droid { primaryFunction }`, true},
		{"a missing required argument", `{ human { name } }`, false},
		{"an undeclared enum value", `{ hero(episode: PHANTOM) { name } }`, false},
	}
	s, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	e := exec.New(s, exec.Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := e.Prepare(tt.query)
			if tt.valid && errs != nil {
				t.Errorf("refused a valid document: %v", errs)
			}
			if !tt.valid {
				if errs == nil {
					t.Fatalf("accepted an invalid document")
				}
				if code := errs[0].Extensions["code"]; code != "GRAPHQL_VALIDATION_FAILED" {
					t.Errorf("code = %v, want GRAPHQL_VALIDATION_FAILED", code)
				}
			}
		})
	}
}

// Cases in the spirit of graphql-js's starWarsIntrospection-test, checked
// on the decoded response so field order inside the introspection types
// does not matter.
func TestIntrospection(t *testing.T) {
	tests := []struct {
		name  string
		query string
		check func(t *testing.T, data map[string]any)
	}{
		{"query type name", `{ __schema { queryType { name } } }`, func(t *testing.T, data map[string]any) {
			if got := dig(data, "__schema", "queryType", "name"); got != "Query" {
				t.Errorf("queryType = %v", got)
			}
		}},
		{"the schema's own types", `{ __schema { types { name } } }`, func(t *testing.T, data map[string]any) {
			var names []string
			for _, ty := range dig(data, "__schema", "types").([]any) {
				names = append(names, ty.(map[string]any)["name"].(string))
			}
			joined := "," + strings.Join(names, ",") + ","
			for _, want := range []string{"Query", "Episode", "Character", "Human", "Droid", "String", "Boolean", "__Schema", "__Type"} {
				if !strings.Contains(joined, ","+want+",") {
					t.Errorf("types %v lack %s", names, want)
				}
			}
		}},
		{"Droid", `{ __type(name: "Droid") { name kind description interfaces { name } fields { name type { name kind ofType { name kind } } } } }`,
			func(t *testing.T, data map[string]any) {
				ty := dig(data, "__type").(map[string]any)
				if ty["kind"] != "OBJECT" || ty["description"] != "A mechanical creature in the Star Wars universe." {
					t.Errorf("Droid = %v", ty)
				}
				fields := map[string]string{}
				for _, f := range ty["fields"].([]any) {
					fm := f.(map[string]any)
					typ := fm["type"].(map[string]any)
					s, _ := typ["kind"].(string)
					if name, ok := typ["name"].(string); ok {
						s += " " + name
					}
					if of, ok := typ["ofType"].(map[string]any); ok {
						s += " of " + of["kind"].(string)
						if name, ok := of["name"].(string); ok {
							s += " " + name
						}
					}
					fields[fm["name"].(string)] = s
				}
				want := map[string]string{
					"id": "NON_NULL of SCALAR String", "name": "SCALAR String", "friends": "LIST of INTERFACE Character",
					"appearsIn": "LIST of ENUM Episode", "secretBackstory": "SCALAR String", "primaryFunction": "SCALAR String",
				}
				for name, w := range want {
					if fields[name] != w {
						t.Errorf("Droid.%s = %q, want %q", name, fields[name], w)
					}
				}
				if len(fields) != len(want) {
					t.Errorf("Droid fields = %v", fields)
				}
			}},
		{"Character's possible types", `{ __type(name: "Character") { kind possibleTypes { name } } }`, func(t *testing.T, data map[string]any) {
			if got := compact(dig(data, "__type")); got != `{"kind":"INTERFACE","possibleTypes":[{"name":"Droid"},{"name":"Human"}]}` {
				t.Errorf("Character = %s", got)
			}
		}},
		{"Episode's values", `{ __type(name: "Episode") { enumValues { name description } } }`, func(t *testing.T, data map[string]any) {
			want := `{"enumValues":[{"description":"Released in 1977.","name":"NEWHOPE"},{"description":"Released in 1980.","name":"EMPIRE"},{"description":"Released in 1983.","name":"JEDI"}]}`
			if got := compact(dig(data, "__type")); got != want {
				t.Errorf("Episode = %s", got)
			}
		}},
		{"hero's argument", `{ __schema { queryType { fields { name args { name description type { kind name } defaultValue } } } } }`,
			func(t *testing.T, data map[string]any) {
				fields := dig(data, "__schema", "queryType", "fields").([]any)
				hero := fields[0].(map[string]any)
				want := `{"args":[{"defaultValue":null,"description":"If omitted, returns the hero of the whole saga. If provided, returns the hero of that particular episode.","name":"episode","type":{"kind":"ENUM","name":"Episode"}}],"name":"hero"}`
				if got := compact(hero); got != want {
					t.Errorf("hero = %s", got)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var resp struct {
				Data   map[string]any
				Errors []any
			}
			if err := json.Unmarshal([]byte(run(t, tt.query, nil)), &resp); err != nil {
				t.Fatal(err)
			}
			if resp.Errors != nil {
				t.Fatalf("errors: %v", resp.Errors)
			}
			tt.check(t, resp.Data)
		})
	}
}

func dig(v any, path ...string) any {
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

// compact re-encodes a decoded value with sorted keys.
func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
