package graft_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/internal/testenv"
	"github.com/graftgql/graft/internal/workload"
	"github.com/graftgql/graft/persisted"
	"github.com/graftgql/graft/persisted/redisstore"
	"github.com/redis/go-redis/v9"
)

var (
	benchQ1 = strings.TrimSpace(workload.Q1)
	benchQ2 = strings.TrimSpace(workload.Q2)
)

// nopWriter is an http.ResponseWriter that keeps nothing, so the
// benchmark measures the router rather than a recorder.
type nopWriter struct{ h http.Header }

func (w *nopWriter) Header() http.Header         { return w.h }
func (w *nopWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *nopWriter) WriteHeader(int)             {}

// BenchmarkRouter measures the whole net/http pipeline in process
// (decode, cache hit, execute, write) beside the engine alone, so the
// HTTP layer's own cost is the difference.
func BenchmarkRouter(b *testing.B) {
	s, err := blog.Schema()
	if err != nil {
		b.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, graft.Config{})
	if err != nil {
		b.Fatal(err)
	}
	eng := exec.New(s, exec.Options{})
	for _, q := range []struct{ name, query string }{{"q1", benchQ1}, {"q2", benchQ2}} {
		body := `{"query":` + quoteJSON(q.query) + `}`
		b.Run(q.name+"/router", func(b *testing.B) {
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
		b.Run(q.name+"/engine", func(b *testing.B) {
			doc, errs := eng.Prepare(q.query)
			if errs != nil {
				b.Fatal(errs)
			}
			op, gerr := doc.Operation("")
			if gerr != nil {
				b.Fatal(gerr)
			}
			buf := make([]byte, 0, 64<<10)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				vars, _ := eng.CoerceVariables(op, nil)
				buf = eng.Execute(ctx, op, vars, buf[:0], nil)
			}
		})
	}
}

func quoteJSON(s string) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for _, c := range s {
		switch c {
		case '"', '\\':
			sb.WriteByte('\\')
			sb.WriteRune(c)
		case '\n':
			sb.WriteString(`\n`)
		default:
			sb.WriteRune(c)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

type stringReadCloser struct{ strings.Reader }

func (*stringReadCloser) Close() error { return nil }

func readerOf(s string) *stringReadCloser {
	r := &stringReadCloser{}
	r.Reset(s)
	return r
}

// BenchmarkPersistedQueryHit compares a hash-only APQ hit with the same
// query sent in full, through the router, with the memory store and (when
// redis-server is on PATH) the Redis store.
func BenchmarkPersistedQueryHit(b *testing.B) {
	s, err := blog.Schema()
	if err != nil {
		b.Fatal(err)
	}
	stores := map[string]func(b *testing.B) persisted.Store{
		"memory": func(b *testing.B) persisted.Store { st, _ := persisted.NewMemoryStore(1000); return st },
		"redis": func(b *testing.B) persisted.Store {
			addr, _ := testenv.StartRedis(b)
			c := redis.NewClient(&redis.Options{Addr: addr})
			b.Cleanup(func() { _ = c.Close() })
			return redisstore.New(c, redisstore.Options{})
		},
	}
	for _, name := range []string{"memory", "redis"} {
		b.Run(name, func(b *testing.B) {
			r, err := graft.NewRouter(s, nil, graft.Config{PersistedQueries: &persisted.Options{Mode: persisted.APQ, Store: stores[name](b)}})
			if err != nil {
				b.Fatal(err)
			}
			h := persisted.Hash(persisted.SHA256, benchQ1)
			full := `{"query":` + quoteJSON(benchQ1) + `}`
			hashOnly := `{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"` + h + `"}}}`
			register := `{"query":` + quoteJSON(benchQ1) + `,"extensions":{"persistedQuery":{"version":1,"sha256Hash":"` + h + `"}}}`
			w := &nopWriter{h: http.Header{}}
			serve := func(body string) {
				req := httptest.NewRequest("POST", "/graphql", readerOf(body))
				req.Header.Set("Content-Type", "application/json")
				r.ServeHTTP(w, req)
			}
			serve(register)
			for _, c := range []struct{ name, body string }{{"full", full}, {"hash-only", hashOnly}} {
				b.Run(c.name, func(b *testing.B) {
					req := httptest.NewRequest("POST", "/graphql", nil)
					req.Header.Set("Content-Type", "application/json")
					b.ReportAllocs()
					for b.Loop() {
						req.Body = readerOf(c.body)
						req.ContentLength = int64(len(c.body))
						r.ServeHTTP(w, req)
					}
				})
			}
		})
	}
}
