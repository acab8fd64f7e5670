package graft_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/loader"
	"github.com/graftgql/graft/schema"
)

type shelfBook struct {
	ID       string
	Title    string
	writerID string
}

type shelfWriter struct {
	ID   string
	Name string
}

// TestLoaderAsRequestService serves a schema whose Book.writer reads a
// loader provided as a request service: each request builds its own
// loader (its cache is the request's), and the writers of all books are
// fetched in one call per request.
func TestLoaderAsRequestService(t *testing.T) {
	var mu sync.Mutex
	var fetched [][]string
	layer := graft.NewLayer()
	graft.ProvideRequest(layer, func(ctx context.Context) (*loader.Loader[string, *shelfWriter], error) {
		return loader.New(func(ctx context.Context, ids []string) ([]*shelfWriter, []error) {
			mu.Lock()
			fetched = append(fetched, slices.Sorted(slices.Values(ids)))
			mu.Unlock()
			out := make([]*shelfWriter, len(ids))
			for i, id := range ids {
				out[i] = &shelfWriter{ID: id, Name: "Writer " + id}
			}
			return out, nil
		}), nil
	})
	b := schema.New()
	schema.Object[shelfWriter](b, "Writer")
	book := schema.Object[shelfBook](b, "Book")
	schema.FieldFuncNoArgs(book, "writer", func(ctx context.Context, bk *shelfBook) (*shelfWriter, error) {
		writers, err := graft.Service[*loader.Loader[string, *shelfWriter]](ctx)
		if err != nil {
			return nil, err
		}
		return writers.Load(ctx, bk.writerID)
	}, schema.Concurrent())
	schema.QueryNoArgs(b, "books", func(context.Context) ([]shelfBook, error) {
		var out []shelfBook
		for i := 1; i <= 5; i++ {
			out = append(out, shelfBook{ID: fmt.Sprint(i), Title: fmt.Sprint("Book ", i), writerID: fmt.Sprint("w", i%3)})
		}
		return out, nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, layer, graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"data":{"books":[{"id":"1","writer":{"name":"Writer w1"}},{"id":"2","writer":{"name":"Writer w2"}},{"id":"3","writer":{"name":"Writer w0"}},{"id":"4","writer":{"name":"Writer w1"}},{"id":"5","writer":{"name":"Writer w2"}}]}}`
	for range 2 {
		status, body := r.Execute(context.Background(), graft.Request{Query: `{ books { id writer { name } } }`})
		if status != 200 || string(body) != want {
			t.Fatalf("status %d body %s", status, body)
		}
	}
	// One fetch per request: the second request did not reuse the
	// first one's cache.
	if got := fmt.Sprint(fetched); got != "[[w0 w1 w2] [w0 w1 w2]]" {
		t.Errorf("fetches %s", got)
	}
}
