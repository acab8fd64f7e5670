package exec_test

import (
	"testing"

	"github.com/graftgql/graft/internal/exec"
)

// TestMergedFieldErrorLocations: a field error names every occurrence of
// the response key the document selects, as graphql-js names each merged
// field node, but those a variable's @include leaves out.
func TestMergedFieldErrorLocations(t *testing.T) {
	e := starwarsEngine(t, exec.Options{})
	for _, tc := range []struct{ query, want string }{
		{`{ hero { secretBackstory } }`,
			`{"errors":[{"message":"secretBackstory is secret.","locations":[{"line":1,"column":10}],"path":["hero","secretBackstory"]}],"data":{"hero":{"secretBackstory":null}}}`},
		{`{ hero { secretBackstory ... on Droid { secretBackstory } } }`,
			`{"errors":[{"message":"secretBackstory is secret.","locations":[{"line":1,"column":10},{"line":1,"column":41}],"path":["hero","secretBackstory"]}],"data":{"hero":{"secretBackstory":null}}}`},
		{`query($no: Boolean!) { hero { secretBackstory secretBackstory @include(if: $no) ...F } } fragment F on Character { secretBackstory }`,
			`{"errors":[{"message":"secretBackstory is secret.","locations":[{"line":1,"column":31},{"line":1,"column":116}],"path":["hero","secretBackstory"]}],"data":{"hero":{"secretBackstory":null}}}`},
	} {
		if got := runQuery(t, e, tc.query, map[string]any{"no": false}); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.query, got, tc.want)
		}
	}
}
