package limits_test

import (
	"context"
	"testing"

	"github.com/graftgql/graft/limits"
	"github.com/graftgql/graft/schema"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// Node is implemented by both objects of the test schema.
type Node interface{ isNode() }

// SearchResult is the union of both objects.
type SearchResult interface{ isSearchResult() }

type Author struct {
	ID   schema.ID
	Name string
}

type Post struct {
	ID    schema.ID
	Title string
}

func (*Author) isNode()         {}
func (*Post) isNode()           {}
func (*Author) isSearchResult() {}
func (*Post) isSearchResult()   {}

type PageArgs struct {
	First *int `default:"10"`
}

// perItem is the cost of a paginated list: 1 plus first times the cost of
// one item.
func perItem(args map[string]any, children int) int {
	n, _ := args["first"].(int64)
	return 1 + int(n)*children
}

// buildSchema builds a schema with costs declared through the builder:
// paginated lists, an interface field with a fixed cost and a union.
func buildSchema(t testing.TB) *schema.Schema {
	t.Helper()
	b := schema.New()
	schema.Interface[Node](b, "Node").Field("id", "ID!", schema.Cost(3))
	schema.Union[SearchResult](b, "SearchResult", []string{"Author", "Post"})
	schema.Query(b, "authors", func(context.Context, PageArgs) ([]*Author, error) { return nil, nil },
		schema.CostFn(perItem))
	schema.Query(b, "search", func(context.Context, PageArgs) ([]SearchResult, error) { return nil, nil },
		schema.CostFn(perItem))
	author := schema.Object[Author](b, "Author", schema.Implements("Node"))
	schema.FieldFunc(author, "posts", func(context.Context, *Author, PageArgs) ([]*Post, error) { return nil, nil },
		schema.CostFn(perItem))
	schema.Object[Post](b, "Post", schema.Implements("Node"))
	s, err := b.Build()
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	return s
}

func prepare(t testing.TB, s *schema.Schema, query string) (*ast.QueryDocument, *ast.OperationDefinition) {
	t.Helper()
	doc, errs := gqlparser.LoadQueryWithRules(s.AST(), query, nil)
	if len(errs) > 0 {
		t.Fatalf("query %q: %v", query, errs)
	}
	return doc, doc.Operations[0]
}

func TestAnalyzeBuiltSchema(t *testing.T) {
	s := buildSchema(t)
	tests := []struct {
		name  string
		query string
		vars  map[string]any
		want  limits.Result
	}{
		{
			name:  "argument defaults from the Go default tag multiply",
			query: `{ authors { id posts { title } } }`,
			want:  limits.Result{Depth: 3, Complexity: 1 + 10*(1+(1+10*1)), Fields: 4},
		},
		{
			name:  "variables multiply",
			query: `query Q($a: Int, $p: Int) { authors(first: $a) { posts(first: $p) { title } } }`,
			vars:  map[string]any{"a": float64(50), "p": float64(20)},
			want:  limits.Result{Depth: 3, Complexity: 1 + 50*(1+20*1), Fields: 3},
		},
		{
			name:  "a union takes the costliest member",
			query: `{ search(first: 2) { ... on Author { name posts(first: 5) { title } } ... on Post { title } } }`,
			want:  limits.Result{Depth: 3, Complexity: 1 + 2*(1+(1+5*1)), Fields: 5},
		},
		{
			name:  "an interface fragment uses the interface field's declared cost",
			query: `{ search(first: 2) { ... on Node { id } } }`,
			want:  limits.Result{Depth: 2, Complexity: 1 + 2*3, Fields: 2},
		},
		{
			name:  "an object fragment uses the object field's default cost",
			query: `{ search(first: 2) { ... on Author { id } } }`,
			want:  limits.Result{Depth: 2, Complexity: 1 + 2*1, Fields: 2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, op := prepare(t, s, tt.query)
			if got := limits.Analyze(s, doc, op, tt.vars); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestCheckBuiltSchema(t *testing.T) {
	s := buildSchema(t)
	complexity := limits.Config{MaxComplexity: 1001}
	depth := limits.Config{MaxDepth: 2}
	const paged = `query Q($n: Int) { authors(first: $n) { posts(first: 9) { title } } }`
	const hidden = `{ search(first: 1) { ... on Author { posts(first: 1) { ...T } } } } fragment T on Post { title }`
	tests := []struct {
		name     string
		cfg      limits.Config
		query    string
		vars     map[string]any
		wantType string
	}{
		{name: "complexity just under", cfg: complexity, query: paged, vars: map[string]any{"n": 99}},
		{name: "complexity at the limit", cfg: complexity, query: paged, vars: map[string]any{"n": 100}},
		{name: "complexity just over", cfg: complexity, query: paged, vars: map[string]any{"n": 101}, wantType: "complexity"},
		{name: "depth at the limit", cfg: depth, query: `{ authors(first: 1) { id } }`},
		{name: "depth over through union and named fragments", cfg: depth, query: hidden, wantType: "depth"},
		{name: "aliases at the limit", cfg: limits.Config{MaxAliases: 1}, query: `{ a: authors(first: 1) { id } }`},
		{name: "aliases over", cfg: limits.Config{MaxAliases: 1}, query: `{ a: authors(first: 1) { id } b: authors(first: 1) { id } }`, wantType: "aliases"},
		{name: "fields at the limit, the spread counted", cfg: limits.Config{MaxFields: 4}, query: hidden},
		{name: "fields over through fragments", cfg: limits.Config{MaxFields: 3}, query: hidden, wantType: "fields"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, op := prepare(t, s, tt.query)
			err := tt.cfg.Check(limits.Analyze(s, doc, op, tt.vars))
			switch {
			case tt.wantType == "" && err != nil:
				t.Fatalf("got %v, want no error", err)
			case tt.wantType != "" && err == nil:
				t.Fatalf("got no error, want %s", tt.wantType)
			case tt.wantType != "" && err.Extensions["limitType"] != tt.wantType:
				t.Fatalf("got %v, want %s", err, tt.wantType)
			}
		})
	}
}
