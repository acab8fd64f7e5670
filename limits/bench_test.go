package limits_test

import (
	"github.com/graftgql/graft/internal/workload"
	"testing"

	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/limits"
	"github.com/vektah/gqlparser/v2"
)

// BenchmarkAnalyzeBlog measures Analyze on the benchmark workload's
// queries against the built blog schema: q2 (50 authors with 10 posts
// each) and q4 (the standard introspection query).
func BenchmarkAnalyzeBlog(b *testing.B) {
	s, err := blog.Schema()
	if err != nil {
		b.Fatal(err)
	}
	for _, file := range []string{"q2.graphql", "q4.graphql"} {
		b.Run(file, func(b *testing.B) {
			query, err := workload.ReadFile(file)
			if err != nil {
				b.Fatal(err)
			}
			doc, errs := gqlparser.LoadQueryWithRules(s.AST(), string(query), nil)
			if errs != nil {
				b.Fatal(errs)
			}
			op := doc.Operations[0]
			b.ReportAllocs()
			for b.Loop() {
				limits.Analyze(s, doc, op, nil)
			}
		})
	}
}
