package starwars

import (
	"encoding/json"
	"fmt"
	"os"
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
	var cases []queryCase
	for _, r := range rows {
		cases = append(cases, r)
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
		cases = append(cases, queryCase{Name: q, Query: q})
	}
	for _, file := range []string{"q4.graphql"} {
		q, err := workload.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, queryCase{Name: file, Query: string(q)})
	}
	full, err := os.ReadFile("../../limits/testdata/introspection_full.graphql")
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases, queryCase{Name: "full introspection", Query: string(full)})

	codeFirst, sdlFirst := clientOf(t, Schema), clientOf(t, SDLSchema)
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			want := codeFirst.Do(t, tc.Query, tc.Variables)
			got := sdlFirst.Do(t, tc.Query, tc.Variables)
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
