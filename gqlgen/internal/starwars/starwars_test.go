package starwars

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/gqlgen"
	"github.com/graftgql/graft/grafttest"
)

// TestQueries serves the project through the gqlgen module and runs the
// query cases of graft's own Star Wars example, wanting the same bytes,
// then the project's own (testdata/queries.json: starships, the
// SearchResult union, the Date scalar, the @units and @upper directives).
func TestQueries(t *testing.T) {
	p, err := gqlgen.Load("gqlgen.yml", &Resolver{}, LoadOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	var last *CharacterLoader
	c := grafttest.New(Loaders(r, func(l *CharacterLoader) { last = l }))
	type testCase struct {
		Name      string          `json:"name"`
		Query     string          `json:"query"`
		Variables map[string]any  `json:"variables"`
		Want      json.RawMessage `json:"want"`
	}
	var cases []testCase
	for _, name := range []string{"../../../examples/starwars/testdata/queries.json", "testdata/queries.json"} {
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var more []testCase
		if err := json.Unmarshal(raw, &more); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, more...)
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			var want bytes.Buffer
			if err := json.Compact(&want, tc.Want); err != nil {
				t.Fatal(err)
			}
			resp := c.Do(t, tc.Query, tc.Variables)
			if resp.Status != 200 || string(resp.Body) != want.String() {
				t.Errorf("response %d\n got %s\nwant %s", resp.Status, resp.Body, want.String())
			}
			// Every friends list is fetched through the request's loader.
			if strings.Contains(tc.Query, "friends") && last.Fetches.Load() == 0 {
				t.Errorf("friends were not loaded through the loader")
			}
		})
	}
}
