package graft_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/internal/testenv"
	"github.com/graftgql/graft/internal/workload"
	"github.com/graftgql/graft/persisted"
	"github.com/graftgql/graft/persisted/redisstore"
	"github.com/graftgql/graft/schema"
	"github.com/redis/go-redis/v9"
)

var benchQ1 = strings.TrimSpace(workload.Q1)

// nopWriter is an http.ResponseWriter that keeps nothing, so the
// benchmark measures the router rather than a recorder.
type nopWriter struct{ h http.Header }

func (w *nopWriter) Header() http.Header         { return w.h }
func (w *nopWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *nopWriter) WriteHeader(int)             {}

// routerBenchCase is one request body of BenchmarkRouter, built as the
// bench's load generator builds it (bench/workload).
type routerBenchCase struct {
	name string
	body string
	// register, when set, is sent once before the loop (an APQ hash-only
	// body needs its query registered first).
	register string
	// query and vars run the engine alone beside the router ("" for none).
	query string
}

func routerBenchCases(b *testing.B) []routerBenchCase {
	var vars map[string]any
	if err := json.Unmarshal(workload.Q3Variables, &vars); err != nil {
		b.Fatal(err)
	}
	body := func(v any) string {
		out, err := json.Marshal(v)
		if err != nil {
			b.Fatal(err)
		}
		return string(out)
	}
	type pq struct {
		Version    int    `json:"version"`
		Sha256Hash string `json:"sha256Hash"`
	}
	type ext struct {
		PersistedQuery pq `json:"persistedQuery"`
	}
	type req struct {
		Query         string         `json:"query,omitempty"`
		OperationName string         `json:"operationName,omitempty"`
		Variables     map[string]any `json:"variables,omitempty"`
		Extensions    *ext           `json:"extensions,omitempty"`
	}
	apq := func(name string, r req) routerBenchCase {
		full := r
		full.Extensions = &ext{pq{1, persisted.Hash(persisted.SHA256, r.Query)}}
		hashOnly := full
		hashOnly.Query = ""
		return routerBenchCase{name: name, body: body(hashOnly), register: body(full)}
	}
	q1 := req{Query: workload.Q1}
	q3 := req{Query: workload.Q3, OperationName: "A", Variables: vars}
	return []routerBenchCase{
		{name: "q1", body: body(q1), query: workload.Q1},
		{name: "q2", body: body(req{Query: workload.Q2}), query: workload.Q2},
		{name: "q3", body: body(q3)},
		{name: "q4", body: body(req{Query: workload.Q4})},
		apq("q1-apq", q1),
		apq("q3-apq", q3),
	}
}

// benchRouter returns the blog schema and a router serving it with the
// bench server's configuration: automatic persisted queries on, in the
// memory store.
func benchRouter(b *testing.B) (*schema.Schema, *graft.Router) {
	b.Helper()
	s, err := blog.Schema()
	if err != nil {
		b.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, graft.Config{PersistedQueries: &persisted.Options{Mode: persisted.APQ}})
	if err != nil {
		b.Fatal(err)
	}
	return s, r
}

// BenchmarkRouter measures the whole net/http pipeline in process
// (decode, cache hit, execute, write) on the bench's queries and bodies,
// with the bench server's configuration (automatic persisted queries on,
// in-memory store), beside the engine alone for q1 and q2, so the HTTP
// layer's own cost is the difference.
func BenchmarkRouter(b *testing.B) {
	s, r := benchRouter(b)
	eng := exec.New(s, exec.Options{})
	for _, c := range routerBenchCases(b) {
		b.Run(c.name+"/router", func(b *testing.B) {
			req := httptest.NewRequest("POST", "/graphql", nil)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json")
			w := &nopWriter{h: http.Header{}}
			if c.register != "" {
				req.Body = readerOf(c.register)
				r.ServeHTTP(w, req)
			}
			b.ReportAllocs()
			for b.Loop() {
				clear(w.h)
				req.Body = readerOf(c.body)
				req.ContentLength = int64(len(c.body))
				r.ServeHTTP(w, req)
			}
		})
		if c.query == "" {
			continue
		}
		b.Run(c.name+"/engine", func(b *testing.B) {
			doc, errs := eng.Prepare(c.query)
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

// coldCacheBytes is what BenchmarkRouterColdCache writes between two
// requests: more than a core's L1 and L2 caches hold.
const coldCacheBytes = 8 << 20

// BenchmarkRouterColdCache serves each hash-only query and its full query
// in turn, as BenchmarkRouter does, but writes coldCacheBytes of other
// memory before every request, as a server's other work does between two
// requests: a path that touches more code and data than another costs
// more here even when both cost the same in a hot loop. It reports the
// median time of each (full-ns, hash-only-ns) and the median of their
// paired differences (diff-ns: hash-only minus full, the order
// alternating); ns/op includes the writing and means nothing.
func BenchmarkRouterColdCache(b *testing.B) {
	_, r := benchRouter(b)
	cases := map[string]routerBenchCase{}
	for _, c := range routerBenchCases(b) {
		cases[c.name] = c
	}
	other := make([]byte, coldCacheBytes)
	evict := func() {
		for i := 0; i < len(other); i += 64 {
			other[i]++
		}
	}
	req := httptest.NewRequest("POST", "/graphql", nil)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	w := &nopWriter{h: http.Header{}}
	serve := func(body string) float64 {
		evict()
		clear(w.h)
		req.Body = readerOf(body)
		req.ContentLength = int64(len(body))
		start := time.Now()
		r.ServeHTTP(w, req)
		return float64(time.Since(start))
	}
	median := func(x []float64) float64 {
		slices.Sort(x)
		return x[len(x)/2]
	}
	for _, name := range []string{"q1", "q3"} {
		full, hashOnly := cases[name], cases[name+"-apq"]
		b.Run(name, func(b *testing.B) {
			serve(hashOnly.register)
			var f, h, d []float64
			for i := 0; b.Loop(); i++ {
				var x, y float64
				if i%2 == 0 {
					x = serve(full.body)
					y = serve(hashOnly.body)
				} else {
					y = serve(hashOnly.body)
					x = serve(full.body)
				}
				f, h, d = append(f, x), append(h, y), append(d, y-x)
			}
			b.ReportMetric(median(f), "full-ns")
			b.ReportMetric(median(h), "hash-only-ns")
			b.ReportMetric(median(d), "diff-ns")
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
