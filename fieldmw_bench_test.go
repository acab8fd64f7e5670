package graft_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/internal/workload"
)

// BenchmarkFieldMiddleware runs q1 and q2 through the router with no
// field middleware and with a pass-through one on every field, so the
// cost of middleware per field shows in allocs/op beside the baseline.
func BenchmarkFieldMiddleware(b *testing.B) {
	s, err := blog.Schema()
	if err != nil {
		b.Fatal(err)
	}
	pass := graft.FieldMiddleware{Func: func(ctx context.Context, _ *graft.FieldInfo, next func(context.Context) (any, error)) (any, error) {
		return next(ctx)
	}}
	for _, mw := range []struct {
		name string
		mws  []graft.FieldMiddleware
	}{{"none", nil}, {"passthrough", []graft.FieldMiddleware{pass}}} {
		r, err := graft.NewRouter(s, nil, graft.Config{FieldMiddleware: mw.mws})
		if err != nil {
			b.Fatal(err)
		}
		for _, q := range []struct{ name, query string }{{"q1", benchQ1}, {"q2", strings.TrimSpace(workload.Q2)}} {
			body := `{"query":` + quoteJSON(q.query) + `}`
			b.Run(q.name+"/"+mw.name, func(b *testing.B) {
				req := httptest.NewRequest("POST", "/graphql", nil)
				req.Header.Set("Content-Type", "application/json")
				w := &nopWriter{h: http.Header{}}
				b.ReportAllocs()
				for b.Loop() {
					req.Body = readerOf(body)
					req.ContentLength = int64(len(body))
					r.ServeHTTP(w, req)
				}
			})
		}
	}
}
