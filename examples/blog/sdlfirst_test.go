package blog

import (
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
// testdata/queries.json, the benchmark workload q1 to q6 and a full
// introspection query, plus bad inputs) on the code-first and the
// schema-first blog schema and wants the same status, headers and bytes.
func TestSDLFirstAnswersLikeCodeFirst(t *testing.T) {
	type run struct {
		name  string
		query string
		vars  map[string]any
	}
	var runs []run
	for _, tc := range loadCases(t) {
		runs = append(runs, run{tc.Name, tc.Query, tc.Variables})
	}
	for _, file := range []string{"q1.graphql", "q2.graphql", "q3.graphql", "q4.graphql", "q5.graphql", "q6.graphql"} {
		q, err := workload.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var vars map[string]any
		if file == "q3.graphql" {
			vars = map[string]any{"id": "a42"}
		}
		runs = append(runs, run{file, string(q), vars})
	}
	full, err := os.ReadFile("../../limits/testdata/introspection_full.graphql")
	if err != nil {
		t.Fatal(err)
	}
	runs = append(runs, run{"full introspection", string(full), nil})
	for _, q := range []string{
		`{ authors { posts { id } } }`,
		`{ authors(first: null) { posts(first: null) { id } } }`,
		`{ authors(first: 1000) { posts(first: 1000) { id } } }`,
		`{ authors(first: -3) { id } }`,
		`{ authors(first: "x") { id } }`,
		`{ author { id } }`,
		`{ author(id: "nope") { id } }`,
		`{ author(id: 7) { name posts { title } } }`,
		`{ nope }`,
		`{ authors(first: 2) { id posts(first: 2) { id likes tags } } hello }`,
	} {
		runs = append(runs, run{q, q, nil})
	}
	codeFirst, sdlFirst := clientOf(t, Schema), clientOf(t, SDLSchema)
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			want := codeFirst.Do(t, r.query, r.vars)
			got := sdlFirst.Do(t, r.query, r.vars)
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
	// GET answers carry the cache hints of the bindings.
	for _, q := range []string{`{ hello }`, `{ authors(first: 1) { id posts(first: 1) { id } } }`} {
		want := codeFirst.Do(t, q, nil, grafttest.GET())
		got := sdlFirst.Do(t, q, nil, grafttest.GET())
		if got.Header.Get("Cache-Control") != want.Header.Get("Cache-Control") || string(got.Body) != string(want.Body) {
			t.Errorf("GET %s: schema-first %q %s, code-first %q %s", q, got.Header.Get("Cache-Control"), got.Body, want.Header.Get("Cache-Control"), want.Body)
		}
	}
}

// TestSDLFirstPrintsTheDocument checks that the schema-first schema
// prints the document it was given (and the definitions graft supplies)
// and that the embedded document is the
// benchmark's.
func TestSDLFirstPrintsTheDocument(t *testing.T) {
	s, err := SDLSchema()
	if err != nil {
		t.Fatal(err)
	}
	// The document, then the definitions graft supplies for the cache
	// hints of the bindings, which the document does not define.
	want := SDL + `
enum CacheControlScope {
  PUBLIC
  PRIVATE
}

"""How long, and by whom, an answer selecting this field or type may be cached."""
directive @cacheControl(maxAge: Int, scope: CacheControlScope) on FIELD_DEFINITION | OBJECT | INTERFACE
`
	if s.SDL() != want {
		t.Errorf("SDL() is not the document given:\n%s", s.SDL())
	}
	shared, err := os.ReadFile("../../../shared/bench/schema.graphql")
	if err != nil {
		t.Skipf("shared bench schema not found: %v", err)
	}
	if string(shared) != SDL {
		t.Error("SDL differs from ../shared/bench/schema.graphql")
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

// The warm path of the benchmark queries on the schema-first schema, to
// set beside BenchmarkQ1Warm and its neighbours.
func BenchmarkSDLQ1Warm(b *testing.B) { benchQueryOf(b, SDLSchema, "q1.graphql", nil) }
func BenchmarkSDLQ2Warm(b *testing.B) { benchQueryOf(b, SDLSchema, "q2.graphql", nil) }
func BenchmarkSDLQ3Warm(b *testing.B) {
	benchQueryOf(b, SDLSchema, "q3.graphql", map[string]any{"id": "a42"})
}

// BenchmarkSDLBuild measures building the schema-first blog schema.
func BenchmarkSDLBuild(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SDLSchema(); err != nil {
			b.Fatal(err)
		}
	}
}
