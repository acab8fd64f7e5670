package bookstore

import (
	"context"
	"testing"

	"github.com/graftgql/graft"
)

// BenchmarkBooksPage100 executes a 100-edge page of the bookstore in
// process, with and without the nodes' global ids.
func BenchmarkBooksPage100(b *testing.B) {
	s, err := Schema()
	if err != nil {
		b.Fatal(err)
	}
	r, err := graft.NewRouter(s, graft.NewLayer(), graft.Config{})
	if err != nil {
		b.Fatal(err)
	}
	for name, query := range map[string]string{
		"titles":     `{ books(first: 100) { edges { cursor node { title isbn } } pageInfo { hasNextPage endCursor } totalCount } }`,
		"global ids": `{ books(first: 100) { edges { cursor node { id title isbn } } pageInfo { hasNextPage endCursor } totalCount } }`,
	} {
		b.Run(name, func(b *testing.B) {
			req := graft.Request{Query: query}
			status, buf := r.AppendExecute(context.Background(), nil, req)
			if status != 200 {
				b.Fatalf("%d %s", status, buf)
			}
			b.ReportAllocs()
			for b.Loop() {
				_, buf = r.AppendExecute(context.Background(), buf[:0], req)
			}
		})
	}
}
