package relay_test

import (
	"context"
	"fmt"
	"strconv"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/relay"
	"github.com/graftgql/graft/schema"
)

type ExampleBook struct {
	ID    int    `graphql:"id"`
	Title string `graphql:"title"`
}

// A connection over a slice and global ids for its nodes.
func Example() {
	library := []ExampleBook{{1, "Dune"}, {2, "Emma"}, {3, "Ulysses"}}

	b := schema.New()
	nodes := relay.NewNodes(b)
	book := schema.Object[ExampleBook](b, "Book", schema.Implements("Node"))
	relay.Register(nodes, book, func(bk *ExampleBook) string { return strconv.Itoa(bk.ID) },
		func(_ context.Context, keys []string) ([]*ExampleBook, []error) {
			out := make([]*ExampleBook, len(keys))
			for i, k := range keys {
				if n, err := strconv.Atoi(k); err == nil && n >= 1 && n <= len(library) {
					out[i] = &library[n-1]
				}
			}
			return out, nil
		})
	books := relay.NewConnection[ExampleBook](b, "Book", relay.Config{TotalCount: true})
	schema.Query(b, "books", func(_ context.Context, args relay.PageArgs) (relay.Connection[ExampleBook], error) {
		return books.Slice(args, library, "")
	}, books.Cost())
	s, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	router, err := graft.NewRouter(s, graft.NewLayer(), graft.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	_, body := router.Execute(context.Background(), graft.Request{
		Query: `{ books(first: 2) { edges { node { id title } } pageInfo { hasNextPage } totalCount } }`,
	})
	fmt.Println(string(body))
	_, body = router.Execute(context.Background(), graft.Request{
		Query:     `query($id: ID!) { node(id: $id) { ... on Book { title } } }`,
		Variables: map[string]any{"id": string(relay.ID("Book", "3"))},
	})
	fmt.Println(string(body))
	// Output:
	// {"data":{"books":{"edges":[{"node":{"id":"Qm9vazox","title":"Dune"}},{"node":{"id":"Qm9vazoy","title":"Emma"}}],"pageInfo":{"hasNextPage":true},"totalCount":3}}}
	// {"data":{"node":{"title":"Ulysses"}}}
}
