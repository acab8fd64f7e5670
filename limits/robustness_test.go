package limits

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// parseOnly parses a document without validating it, for shapes that
// validation would reject or take long over.
func parseOnly(t testing.TB, query string) (*ast.QueryDocument, *ast.OperationDefinition) {
	t.Helper()
	doc, err := parser.ParseQuery(&ast.Source{Input: query})
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return doc, doc.Operations[0]
}

// chain returns a document whose operation spreads F0, each Fi selecting
// hello and spreading F(i+1), n fragments in all.
func chain(n int) string {
	var b strings.Builder
	b.WriteString("{ ...F0 }\n")
	for i := range n {
		fmt.Fprintf(&b, "fragment F%d on Query { hello", i)
		if i+1 < n {
			fmt.Fprintf(&b, " ...F%d", i+1)
		}
		b.WriteString(" }\n")
	}
	return b.String()
}

// fan returns a document in which each of n fragments spreads the next
// twice, so the fully expanded operation has 2^n copies of the last.
func fan(n int) string {
	var b strings.Builder
	b.WriteString("{ ...F0 }\n")
	for i := range n {
		fmt.Fprintf(&b, "fragment F%d on Query { authors(first: 100) { id } ", i)
		if i+1 < n {
			fmt.Fprintf(&b, "...F%d ...F%d", i+1, i+1)
		}
		b.WriteString(" }\n")
	}
	return b.String()
}

func TestAnalyzeDocumentShapes(t *testing.T) {
	s := loadSchema(t, testSDL)
	tests := []struct {
		name  string
		query string
		want  Result
	}{
		{
			name:  "a chain of 10,000 fragments",
			query: chain(10000),
			want:  Result{Depth: 1, Complexity: 10000, Fields: 2 * 10000},
		},
		{
			name:  "a fan of fragments saturates instead of overflowing",
			query: fan(80),
			want:  Result{Depth: 2, Complexity: math.MaxInt, Fields: math.MaxInt},
		},
		{
			name:  "a fragment cycle ends the walk",
			query: `{ ...A } fragment A on Query { hello ...B } fragment B on Query { hello ...A }`,
			want:  Result{Depth: 1, Complexity: 2, Fields: 5},
		},
		{
			name:  "a spread of an undefined fragment counts as a spread",
			query: `{ ...Missing hello }`,
			want:  Result{Depth: 1, Complexity: 1, Fields: 2},
		},
		{
			name:  "unknown fields are counted with the default cost",
			query: `{ nope { deeper { deepest } } }`,
			want:  Result{Depth: 3, Complexity: 3, Fields: 3},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, op := parseOnly(t, tt.query)
			got := analyze(s, testCostLookup, doc, op, nil)
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestAnalyzeWithoutSchema(t *testing.T) {
	doc, op := parseOnly(t, `{ a { ... on X { b } ...F } } fragment F on Y { c(first: 3) { d } }`)
	got := Analyze(nil, doc, op, nil)
	want := Result{Depth: 3, Complexity: 1 + 1 + 2, Fields: 5}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func FuzzAnalyze(f *testing.F) {
	s := loadSchema(f, testSDL)
	for _, seed := range []string{
		`{ hello }`,
		`query Q($n: Int) { authors(first: $n) { id posts { id } } }`,
		`{ search(text: "x") { ... on Character { friends { name } } ...H } } fragment H on Human { id }`,
		`{ ...A } fragment A on Query { ...A }`,
		`{ characters(filter: {first: [1, {a: 2}], minLikes: $v}) { name } }`,
		`{ __schema { types { name } } }`,
		`query Q($f: Filter, $n: Int) { characters(filter: $f) { friends(first: $n) { ... on Human { starships { id } } } } }`,
		`{ search(text: "x", limit: 3) { ... on Node { id } ... on Character { friends { ...C } } } } fragment C on Droid { primaryFunction }`,
	} {
		f.Add(seed, `{"n": 3}`)
	}
	f.Fuzz(func(t *testing.T, query, vars string) {
		var v map[string]any
		_ = jsonUnmarshal(vars, &v)
		// Validated, so that fields carry their definitions and the typed
		// paths (possible types, argument coercion) run.
		if doc, errs := gqlparser.LoadQueryWithRules(s, query, nil); errs == nil {
			for _, op := range doc.Operations {
				r := analyze(s, testCostLookup, doc, op, v)
				if r.Depth < 0 || r.Complexity < 0 || r.Fields < 0 {
					t.Fatalf("negative measure %+v", r)
				}
			}
		}
		doc, err := parser.ParseQuery(&ast.Source{Input: query})
		if err != nil || len(doc.Operations) == 0 {
			return
		}
		for _, op := range doc.Operations {
			r := analyze(s, testCostLookup, doc, op, v)
			if r.Depth < 0 || r.Complexity < 0 || r.Fields < 0 || r.Aliases < 0 || r.Directives < 0 {
				t.Fatalf("negative measure %+v", r)
			}
			UsesVariables(doc, op)
		}
	})
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }
