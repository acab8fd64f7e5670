package starwars

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/grafttest"
	"github.com/graftgql/graft/internal/workload"
	"github.com/graftgql/graft/schema"
)

func clientOf(t *testing.T, build func() (*schema.Schema, error)) *grafttest.Client {
	t.Helper()
	s, err := build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, graft.NewLayer(), graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return grafttest.New(r)
}

// TestSDLFirstAnswersLikeCodeFirst runs every example query (the cases of
// testdata/queries.json, the validation cases and two full introspection
// queries) on the code-first and the schema-first schema and wants the
// same status, headers and bytes.
func TestSDLFirstAnswersLikeCodeFirst(t *testing.T) {
	b, err := os.ReadFile("testdata/queries.json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []queryCase
	if err := json.Unmarshal(b, &rows); err != nil {
		t.Fatal(err)
	}
	var cases []sdlCase
	for _, r := range rows {
		cases = append(cases, sdlCase{queryCase: r})
	}
	for _, q := range []string{
		`query NestedQueryWithFragment { hero { ...NameAndAppearances friends { ...NameAndAppearances friends { ...NameAndAppearances } } } }
			fragment NameAndAppearances on Character { name appearsIn }`,
		`query HeroSpaceshipQuery { hero { favoriteSpaceship } }`,
		`query HeroNoFieldsQuery { hero }`,
		`query DroidFieldOnCharacter { hero { name primaryFunction } }`,
		`query DroidFieldInFragment { hero { name ... on Droid { primaryFunction } } }`,
		`{ human { name } }`,
		`{ hero(episode: PHANTOM) { name } }`,
		`{ human(id: "1000") { name secretBackstory friends { name ... on Droid { primaryFunction } } } }`,
		`{ __type(name: "Human") { name description fields { name description type { name kind ofType { name kind } } } } }`,
	} {
		cases = append(cases, sdlCase{queryCase: queryCase{Name: q, Query: q}})
	}
	for _, file := range []string{"q4.graphql"} {
		q, err := workload.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, sdlCase{queryCase{Name: file, Query: string(q)}, true})
	}
	full, err := os.ReadFile("../../limits/testdata/introspection_full.graphql")
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases, sdlCase{queryCase{Name: "full introspection", Query: string(full)}, true})

	codeFirst, sdlFirst := clientOf(t, Schema), clientOf(t, SDLSchema)
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			want := codeFirst.Do(t, tc.Query, tc.Variables)
			got := sdlFirst.Do(t, tc.Query, tc.Variables)
			if tc.introspection {
				// The code-first Droid lists its struct field
				// primaryFunction before the resolver secretBackstory;
				// the schema-first one keeps the document's order
				// (TestSDLFirstFieldOrder). Compare with names sorted.
				got.Body, want.Body = sortedByName(t, got.Body), sortedByName(t, want.Body)
			}
			if got.Status != want.Status || string(got.Body) != string(want.Body) {
				t.Errorf("schema-first %d, code-first %d; bodies differ at %s", got.Status, want.Status, firstDiff(got.Body, want.Body))
			}
			for _, h := range []string{"Content-Type", "Cache-Control"} {
				if got.Header.Get(h) != want.Header.Get(h) {
					t.Errorf("%s: schema-first %q, code-first %q", h, got.Header.Get(h), want.Header.Get(h))
				}
			}
		})
	}
}

// TestSDLFirstPrintsTheDocument checks that the schema-first schema
// prints the document it was given, byte for byte, and that the embedded
// document is the shared one.
func TestSDLFirstPrintsTheDocument(t *testing.T) {
	s, err := SDLSchema()
	if err != nil {
		t.Fatal(err)
	}
	if s.SDL() != SDL {
		t.Errorf("SDL() is not the document given:\n%s", s.SDL())
	}
	shared, err := os.ReadFile("../../../shared/examples/starwars.graphql")
	if err != nil {
		t.Skipf("shared starwars schema not found: %v", err)
	}
	if string(shared) != SDL {
		t.Error("starwars.graphql differs from ../shared/examples/starwars.graphql")
	}
}

// firstDiff shows where two bodies first differ.
func firstDiff(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(i-80, 0)
	return fmt.Sprintf("byte %d:\n got ...%s\nwant ...%s", i, got[from:min(i+80, len(got))], want[from:min(i+80, len(want))])
}

type sdlCase struct {
	queryCase
	introspection bool
}

// sortedByName re-encodes a JSON body with every list of named objects
// sorted by name.
func sortedByName(t *testing.T, body []byte) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
			sort.SliceStable(x, func(i, j int) bool {
				a, _ := x[i].(map[string]any)
				b, _ := x[j].(map[string]any)
				an, _ := a["name"].(string)
				bn, _ := b["name"].(string)
				return an < bn
			})
		}
	}
	walk(v)
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSDLFirstFieldOrder checks that introspection lists fields in the
// document's order.
func TestSDLFirstFieldOrder(t *testing.T) {
	c := clientOf(t, SDLSchema)
	resp := c.Do(t, `{ __type(name: "Droid") { fields { name } } }`, nil)
	want := `{"data":{"__type":{"fields":[{"name":"id"},{"name":"name"},{"name":"friends"},{"name":"appearsIn"},{"name":"secretBackstory"},{"name":"primaryFunction"}]}}}`
	if string(resp.Body) != want {
		t.Errorf("got %s\nwant %s", resp.Body, want)
	}
}
