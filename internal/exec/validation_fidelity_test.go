package exec_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/exec"
)

// TestGraphQLJSValidationFidelity checks validation errors against
// graphql-js 16.15's own (message and locations), copied from its output
// for the Star Wars schema: the leaf type named in full, each error once
// however many spreads reach it, no error for a variable of an unknown
// type or a repeated unknown directive beyond graphql-js's own, an object
// literal where a leaf is expected, every spread of a fragment cycle, and
// a variable in an operation's own directive.
func TestGraphQLJSValidationFidelity(t *testing.T) {
	e := starwarsEngine(t, exec.Options{})
	for _, tc := range []struct{ query, want string }{
		{`{ hero { id { x } appearsIn { x } } }`,
			`[{"message":"Field \"id\" must not have a selection since type \"String!\" has no subfields.","locations":[{"line":1,"column":13}]},{"message":"Field \"appearsIn\" must not have a selection since type \"[Episode]\" has no subfields.","locations":[{"line":1,"column":29}]}]`},
		{`{ hero { ...F ...F } } fragment F on Character { name { x } }`,
			`[{"message":"Field \"name\" must not have a selection since type \"String\" has no subfields.","locations":[{"line":1,"column":55}]}]`},
		{`query($u: Unknown) { human(id: $u) { name } }`,
			`[{"message":"Unknown type \"Unknown\".","locations":[{"line":1,"column":11}]}]`},
		{`{ hero @unknown @unknown { name } }`,
			`[{"message":"Unknown directive \"@unknown\".","locations":[{"line":1,"column":8}]},{"message":"Unknown directive \"@unknown\".","locations":[{"line":1,"column":17}]}]`},
		{`{ hero(episode: {a: 1, b: 2}) { name } human(id: {a: {b: 1}}) { name @include(if: {x: "s"}) } }`,
			`[{"message":"Enum \"Episode\" cannot represent non-enum value: {a: 1, b: 2}.","locations":[{"line":1,"column":17}]},{"message":"String cannot represent a non string value: {a: {b: 1}}","locations":[{"line":1,"column":50}]},{"message":"Boolean cannot represent a non boolean value: {x: \"s\"}","locations":[{"line":1,"column":83}]}]`},
		{`{ hero { ...A } } fragment A on Character { ...B } fragment B on Character { ...C } fragment C on Character { ...A }`,
			`[{"message":"Cannot spread fragment \"A\" within itself via \"B\", \"C\".","locations":[{"line":1,"column":45},{"line":1,"column":78},{"line":1,"column":111}]}]`},
		{`query Q @include(if: $b) { hero { name } }`,
			`[{"message":"Directive \"@include\" may not be used on QUERY.","locations":[{"line":1,"column":9}]},{"message":"Variable \"$b\" is not defined by operation \"Q\".","locations":[{"line":1,"column":22},{"line":1,"column":1}]}]`},
		{`{ hero { name @include(if: true) @skip(if: false) b: friends @include(if: false) @include(if: true) { name } } }`,
			`[{"message":"The directive \"@include\" can only be used once at this location.","locations":[{"line":1,"column":62},{"line":1,"column":82}]}]`},
	} {
		_, errs := e.Prepare(tc.query)
		type located struct {
			Message   string `json:"message"`
			Locations []struct {
				Line   int `json:"line"`
				Column int `json:"column"`
			} `json:"locations"`
		}
		var got []located
		for _, ge := range errs {
			l := located{Message: ge.Message}
			for _, loc := range ge.Locations {
				l.Locations = append(l.Locations, struct {
					Line   int `json:"line"`
					Column int `json:"column"`
				}{loc.Line, loc.Column})
			}
			got = append(got, l)
		}
		var want []located
		if err := json.Unmarshal([]byte(tc.want), &want); err != nil {
			t.Fatal(err)
		}
		// The order of a document's several errors is not the
		// specification's to say.
		byMessage := func(a, b located) int { return strings.Compare(a.Message, b.Message) }
		slices.SortStableFunc(got, byMessage)
		slices.SortStableFunc(want, byMessage)
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("%s:\n got %s\nwant %s", tc.query, g, w)
		}
	}
}
