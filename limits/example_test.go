package limits_test

import (
	"context"
	"fmt"

	"github.com/graftgql/graft/limits"
	"github.com/graftgql/graft/schema"
	"github.com/vektah/gqlparser/v2"
)

type Book struct {
	Title string
}

type BooksArgs struct {
	First *int `default:"10"`
}

func Example() {
	b := schema.New()
	schema.Query(b, "books", func(context.Context, BooksArgs) ([]Book, error) { return nil, nil },
		schema.CostFn(limits.ListCost("first", 100)))
	schema.Object[Book](b, "Book")
	s, err := b.Build()
	if err != nil {
		panic(err)
	}

	doc, errs := gqlparser.LoadQueryWithRules(s.AST(), `query Q($n: Int) { books(first: $n) { title } }`, nil)
	if errs != nil {
		panic(errs)
	}
	op := doc.Operations[0]
	fmt.Println(limits.UsesVariables(doc, op))

	cfg := limits.Config{MaxComplexity: 50}
	for _, n := range []int{20, 80} {
		res := limits.Analyze(s, doc, op, map[string]any{"n": n})
		fmt.Println(string(res.AppendJSON(nil)))
		if err := cfg.Check(res); err != nil {
			fmt.Println(err.Message, err.Extensions["code"])
		}
	}
	// Output:
	// true
	// {"depth":2,"complexity":21,"fields":2,"aliases":0}
	// {"depth":2,"complexity":81,"fields":2,"aliases":0}
	// Query complexity of 81 exceeds maximum allowed complexity of 50 COMPLEXITY_LIMIT_EXCEEDED
}
