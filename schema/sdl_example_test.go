package schema_test

import (
	"context"
	"fmt"

	"github.com/graftgql/graft/schema"
)

type ExampleSDLBook struct {
	Title string
	Pages int
}

// A schema-first builder: the document is the type system, the Go code
// binds to it, and Build reports every mismatch with its position.
func ExampleBuilder_SDL() {
	const doc = `type Query {
  books: [Book!]!
}

type Book {
  title: String!
  pages: Int
  isbn: String!
}
`
	b := schema.New().SDL("books.graphql", doc)
	schema.QueryNoArgs(b, "books", func(context.Context) ([]ExampleSDLBook, error) {
		return []ExampleSDLBook{{Title: "Dune", Pages: 412}}, nil
	})
	schema.QueryNoArgs(b, "count", func(context.Context) (int, error) { return 1, nil })
	_, err := b.Build()
	fmt.Println(err)
	// Output:
	// schema: books.graphql:1:6: Query.count: a resolver for a field the SDL does not define
	// schema: books.graphql:8:3: Book.isbn: no resolver or struct field for isbn: String! (Go type schema_test.ExampleSDLBook)
}
