package blog

import (
	"context"
	"encoding/json"
	"github.com/graftgql/graft/internal/workload"
	"testing"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/limits"
	"github.com/vektah/gqlparser/v2"
)

func prepare(tb testing.TB, query string, vars map[string]any) (*exec.Engine, *exec.Operation, map[string]any) {
	tb.Helper()
	s, err := Schema()
	if err != nil {
		tb.Fatal(err)
	}
	e := exec.New(s, exec.Options{})
	doc, errs := e.Prepare(query)
	if errs != nil {
		tb.Fatalf("prepare: %v", errs)
	}
	op, gerr := doc.Operation("")
	if gerr != nil {
		tb.Fatalf("operation: %v", gerr)
	}
	coerced, errs := e.CoerceVariables(op, vars)
	if errs != nil {
		tb.Fatalf("variables: %v", errs)
	}
	return e, op, coerced
}

func run(t *testing.T, query string, vars map[string]any) string {
	t.Helper()
	e, op, coerced := prepare(t, query, vars)
	return string(e.Execute(context.Background(), op, coerced, nil, nil))
}

func TestQueries(t *testing.T) {
	tests := []struct {
		name  string
		query string
		vars  map[string]any
		want  string
	}{
		{"hello", `{ hello }`, nil, `{"data":{"hello":"world"}}`},
		{
			"authors with posts",
			`{ authors(first: 2) { id name email posts(first: 1) { id title likes tags } } }`, nil,
			`{"data":{"authors":[` +
				`{"id":"a1","name":"Author 1","email":"author1@example.com","posts":[{"id":"p1-1","title":"Post 1 by 1","likes":32,"tags":["go","graphql","t1"]}]},` +
				`{"id":"a2","name":"Author 2","email":"author2@example.com","posts":[{"id":"p2-1","title":"Post 1 by 2","likes":63,"tags":["go","graphql","t1"]}]}]}}`,
		},
		{"unknown author", `{ author(id: "a101") { id } }`, nil, `{"data":{"author":null}}`},
		{"first zero", `{ authors(first: 0) { id } }`, nil, `{"data":{"authors":[]}}`},
		{
			"author through a variable",
			`query A($id: ID!) { author(id: $id) { name posts(first: 2) { id likes } } }`, map[string]any{"id": "a100"},
			`{"data":{"author":{"name":"Author 100","posts":[{"id":"p100-1","likes":101},{"id":"p100-2","likes":102}]}}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := run(t, tt.query, tt.vars); got != tt.want {
				t.Errorf("response\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestPageSizes counts the authors and posts that the benchmark queries
// and the default and null arguments return.
func TestPageSizes(t *testing.T) {
	tests := []struct {
		name           string
		query          string
		authors, posts int
	}{
		{"default first", `{ authors { posts { id } } }`, 10, 10},
		{"explicit null first", `{ authors(first: null) { posts(first: null) { id } } }`, 10, 10},
		{"q2", `{ authors(first: 50) { id name email posts(first: 10) { id title likes tags } } }`, 50, 10},
		{"clamped", `{ authors(first: 1000) { posts(first: 1000) { id } } }`, 100, 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var resp struct {
				Data struct {
					Authors []struct{ Posts []json.RawMessage }
				}
			}
			if err := json.Unmarshal([]byte(run(t, tt.query, nil)), &resp); err != nil {
				t.Fatal(err)
			}
			if len(resp.Data.Authors) != tt.authors {
				t.Fatalf("got %d authors, want %d", len(resp.Data.Authors), tt.authors)
			}
			for _, a := range resp.Data.Authors {
				if len(a.Posts) != tt.posts {
					t.Fatalf("got %d posts, want %d", len(a.Posts), tt.posts)
				}
			}
		})
	}
}

func benchQuery(b *testing.B, file string, vars map[string]any) {
	q, err := workload.ReadFile(file)
	if err != nil {
		b.Skipf("bench query: %v", err)
	}
	e, op, coerced := prepare(b, string(q), vars)
	buf := make([]byte, 0, 1<<20)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		buf = e.Execute(context.Background(), op, coerced, buf[:0], nil)
	}
}

// The warm path of the benchmark queries: planned once, executed each
// iteration.
func BenchmarkQ1Warm(b *testing.B) { benchQuery(b, "q1.graphql", nil) }
func BenchmarkQ2Warm(b *testing.B) { benchQuery(b, "q2.graphql", nil) }
func BenchmarkQ3Warm(b *testing.B) { benchQuery(b, "q3.graphql", map[string]any{"id": "a42"}) }

func benchCold(b *testing.B, file string, vars map[string]any) {
	q, err := workload.ReadFile(file)
	if err != nil {
		b.Skipf("bench query: %v", err)
	}
	s, err := Schema()
	if err != nil {
		b.Fatal(err)
	}
	e := exec.New(s, exec.Options{})
	buf := make([]byte, 0, 1<<20)
	b.ReportAllocs()
	for b.Loop() {
		doc, errs := e.Prepare(string(q))
		if errs != nil {
			b.Fatal(errs)
		}
		op, _ := doc.Operation("")
		coerced, _ := e.CoerceVariables(op, vars)
		buf = e.Execute(context.Background(), op, coerced, buf[:0], nil)
	}
}

// The cold path: parse, validate and plan each iteration.
func BenchmarkQ2Cold(b *testing.B) { benchCold(b, "q2.graphql", nil) }
func BenchmarkQ3Cold(b *testing.B) { benchCold(b, "q3.graphql", map[string]any{"id": "a42"}) }

// BenchmarkBuild measures building the blog schema, SDL and gqlparser
// form included.
func BenchmarkBuild(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Schema(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBatchFieldKeepsItsCost checks that Author.posts, a batch field,
// costs what its CostFn declares: 1 + first × its children per author.
func TestBatchFieldKeepsItsCost(t *testing.T) {
	s, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	doc, gerr := gqlparser.LoadQuery(s.AST(), `{ authors(first: 3) { posts(first: 5) { id title } } }`)
	if gerr != nil {
		t.Fatal(gerr)
	}
	res := limits.Analyze(s, doc, doc.Operations[0], nil)
	// posts: 1 + 5 × (1 + 1) = 11; authors: 1 + 3 × 11 = 34.
	if res.Complexity != 34 {
		t.Errorf("complexity = %d, want 34", res.Complexity)
	}
}
