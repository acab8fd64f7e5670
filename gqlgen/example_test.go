package gqlgen_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/gqlgen"
)

// The models and resolvers of a gqlgen project, as gqlgen's layout has
// them; its generated.go is gone.
type (
	Book struct {
		ID    string
		Title string
	}
	Resolver      struct{ books []*Book }
	queryResolver struct{ *Resolver }
)

func (r *Resolver) Query() *queryResolver { return &queryResolver{r} }

func (r *queryResolver) Books(ctx context.Context, first *int) ([]*Book, error) {
	n := len(r.books)
	if first != nil {
		n = min(n, max(*first, 0))
	}
	return r.books[:n], nil
}

func Example() {
	dir, err := os.MkdirTemp("", "project")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "gqlgen.yml"), []byte("schema:\n  - schema.graphqls\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "schema.graphqls"), []byte("type Query {\n  books(first: Int): [Book!]!\n}\n\ntype Book {\n  id: ID!\n  title: String!\n}\n"), 0o644)

	p, err := gqlgen.Load(filepath.Join(dir, "gqlgen.yml"), &Resolver{books: []*Book{{"1", "Dune"}, {"2", "Solaris"}}})
	if err != nil {
		log.Fatal(err)
	}
	s, err := p.Build()
	if err != nil {
		log.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, graft.Config{})
	if err != nil {
		log.Fatal(err)
	}
	_, body := r.Execute(context.Background(), graft.Request{Query: "{ books(first: 1) { id title } }"})
	fmt.Println(string(body))
	// Output:
	// {"data":{"books":[{"id":"1","title":"Dune"}]}}
}
