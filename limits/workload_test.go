package limits

import (
	"github.com/graftgql/graft/internal/workload"
	"testing"

	"github.com/graftgql/graft/schema"
	"github.com/vektah/gqlparser/v2/ast"
)

// blogCosts declares the list costs of the benchmark schema
// (the shared benchmark workload's schema, from internal/workload).
var blogCosts = map[string]schema.CostFunc{
	"Query.authors": multiply("first"),
	"Author.posts":  multiply("first"),
}

func blogCostLookup(typeName, fieldName string) schema.CostFunc {
	return blogCosts[typeName+"."+fieldName]
}

func readTestdata(t testing.TB, name string) string {
	t.Helper()
	b, err := workload.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func loadWorkload(t testing.TB, name string) (*ast.Schema, *ast.QueryDocument, *ast.OperationDefinition) {
	t.Helper()
	s := loadSchema(t, readTestdata(t, "schema.graphql"))
	doc, op := loadQuery(t, s, readTestdata(t, name))
	return s, doc, op
}

func TestWorkload(t *testing.T) {
	tests := []struct {
		file string
		want Result
	}{
		{file: "q2.graphql", want: Result{Depth: 3, Complexity: 1 + 50*(3+(1+10*4)), Fields: 9}},
		// The standard introspection query: exempt from every limit, and
		// within the default introspection limits.
		{file: "q4.graphql", want: Result{IntrospectionDepth: 15, IntrospectionLists: 3, IntrospectionRoots: 1, IntrospectionFields: 220}},
	}
	strict := Config{
		MaxDepth: 1, MaxComplexity: 1, MaxFields: 1, MaxAliases: 1, MaxDirectives: 1,
		MaxIntrospectionDepth: 15, MaxIntrospectionLists: 3, MaxIntrospectionRoots: 1,
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			s, doc, op := loadWorkload(t, tt.file)
			got := analyze(s, blogCostLookup, doc, op, nil)
			if got != tt.want {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
			if tt.file == "q4.graphql" {
				if err := strict.Check(got); err != nil {
					t.Errorf("introspection refused under strict limits: %v", err)
				}
			}
		})
	}
}

func BenchmarkAnalyze(b *testing.B) {
	for _, file := range []string{"q2.graphql", "q4.graphql"} {
		b.Run(file, func(b *testing.B) {
			s, doc, op := loadWorkload(b, file)
			b.ReportAllocs()
			for b.Loop() {
				analyze(s, blogCostLookup, doc, op, nil)
			}
		})
	}
}
