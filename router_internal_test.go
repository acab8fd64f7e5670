package graft

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/pqattach"
	"github.com/graftgql/graft/persisted"
	"github.com/graftgql/graft/schema"
)

func helloSchema(t *testing.T) *schema.Schema {
	t.Helper()
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(ctx context.Context) (string, error) { return "world", nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func postQuery(r *Router, query string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", "/graphql", strings.NewReader(`{"query":"`+query+`"}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, req)
	return rec
}

// TestDocumentCacheIsBounded checks that prepared documents are reused and
// that the cache keeps at most DocumentCacheSize of them, least recently
// used out first.
func TestDocumentCacheIsBounded(t *testing.T) {
	r, err := NewRouter(helloSchema(t), nil, Config{DocumentCacheSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	queries := []string{"{ hello }", "{ a: hello }", "{ b: hello }"}
	postQuery(r, queries[0])
	d1, _ := r.docs.Peek(queries[0])
	postQuery(r, queries[0])
	if d2, _ := r.docs.Peek(queries[0]); d1 == nil || d1 != d2 {
		t.Fatal("a repeated query was prepared again")
	}
	for _, q := range queries[1:] {
		if rec := postQuery(r, q); rec.Code != 200 {
			t.Fatalf("%s: %d", q, rec.Code)
		}
	}
	if r.docs.Len() != 2 || r.docs.Contains(queries[0]) {
		t.Fatalf("cache holds %d documents (first query kept: %v)", r.docs.Len(), r.docs.Contains(queries[0]))
	}
	if postQuery(r, "{ nope }"); r.docs.Contains("{ nope }") {
		t.Fatal("an invalid document was cached")
	}
}

// TestAttachedDocumentsLeaveWithTheCache checks that the entries a
// document is attached to (the memory store's, for a hash-only query, and
// the query texts', for an escaped query) lead to it only while the
// document cache holds it: once evicted, it is collected although both
// entries remain, and the next request prepares the query again and finds
// the new document through its entry.
func TestAttachedDocumentsLeaveWithTheCache(t *testing.T) {
	store, err := persisted.NewMemoryStore(10)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRouter(helloSchema(t), nil, Config{DocumentCacheSize: 1,
		PersistedQueries: &persisted.Options{Mode: persisted.APQ, Store: store}})
	if err != nil {
		t.Fatal(err)
	}
	const query = `{ x: hello }\n` // escaped in the body: kept in the query texts
	const text = "{ x: hello }\n"
	hash := persisted.Hash(persisted.SHA256, text)
	send := func(body string) {
		t.Helper()
		req := httptest.NewRequest("POST", "/graphql", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, req)
		if rec.Code != 200 || rec.Body.String() != `{"data":{"x":"world"}}` {
			t.Fatalf("%s: %d %s", body, rec.Code, rec.Body)
		}
	}
	ext := `"extensions":{"persistedQuery":{"version":1,"sha256Hash":"` + hash + `"}}`
	plain := `{"query":"` + query + `"}`
	send(`{"query":"` + query + `",` + ext + `}`) // registers
	send(`{` + ext + `}`)                         // attaches to the store's entry
	send(plain)                                   // attaches to the query texts' entry
	e, _ := pqattach.CacheOf(store).Peek(hash)
	d, ok := r.docs.Peek(text)
	if e == nil || !ok || r.attached(&e.Slot) != d {
		t.Fatalf("the store's entry does not lead to the cached document (cached %v)", ok)
	}
	collected := make(chan struct{})
	runtime.AddCleanup(d, func(c chan struct{}) { close(c) }, collected)
	d = nil

	postQuery(r, "{ hello }") // evicts the document: the cache holds one
	if r.docs.Contains(text) {
		t.Fatal("the document was not evicted")
	}
	for i := 0; ; i++ {
		runtime.GC()
		select {
		case <-collected:
		default:
			if i < 20 {
				continue
			}
			t.Fatal("the evicted document is still reachable through the entries it was attached to")
		}
		break
	}
	send(`{` + ext + `}`)
	send(plain)
	d2, ok := r.docs.Peek(text)
	if !ok || r.attached(&e.Slot) != d2 {
		t.Fatalf("the hash-only query did not attach its new document (cached %v)", ok)
	}
}

// TestPanicInThePipelineIsContained checks that a panic outside resolvers
// (here in the authentication hook) answers the generic internal error
// and is logged, with no detail for the client.
func TestPanicInThePipelineIsContained(t *testing.T) {
	var logged strings.Builder
	r, err := NewRouter(helloSchema(t), nil, Config{
		Logger: slog.New(slog.NewTextHandler(&logged, nil)),
		Auth: func(ctx context.Context, req *AuthRequest) (context.Context, error) {
			panic("secret detail")
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	rec := postQuery(r, "{ hello }")
	body := rec.Body.String()
	if rec.Code != http.StatusBadRequest || !strings.Contains(body, "INTERNAL_SERVER_ERROR") || strings.Contains(body, "secret") {
		t.Fatalf("got %d %s", rec.Code, body)
	}
	if !strings.Contains(logged.String(), "secret detail") {
		t.Fatalf("the panic was not logged: %q", logged.String())
	}
	// The router keeps serving.
	r.cfg.Auth = nil
	if rec := postQuery(r, "{ hello }"); rec.Code != 200 {
		t.Fatalf("after the panic: %d", rec.Code)
	}
}

// panickyStore is a persisted-query store that panics, a fault outside
// the resolvers that only Router.Execute's own containment can catch.
type panickyStore struct{}

func (panickyStore) Get(context.Context, string) (string, bool, error) { panic("store detail") }
func (panickyStore) Set(context.Context, string, string) error         { panic("store detail") }

// TestPanicInExecuteIsContained checks the same for Router.Execute.
func TestPanicInExecuteIsContained(t *testing.T) {
	var logged strings.Builder
	r, err := NewRouter(helloSchema(t), nil, Config{
		Logger:           slog.New(slog.NewTextHandler(&logged, nil)),
		PersistedQueries: &persisted.Options{Mode: persisted.APQ, Store: panickyStore{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	ext := map[string]any{"persistedQuery": map[string]any{"version": int64(1), "sha256Hash": persisted.Hash(persisted.SHA256, "{ hello }")}}
	status, body := r.Execute(context.Background(), Request{Extensions: ext})
	if status != http.StatusBadRequest || !strings.Contains(string(body), "INTERNAL_SERVER_ERROR") || strings.Contains(string(body), "detail") {
		t.Fatalf("got %d %s", status, body)
	}
	if !strings.Contains(logged.String(), "store detail") {
		t.Fatalf("the panic was not logged: %q", logged.String())
	}
}

// TestPanickingServiceBuilderFailsTheStart checks that a builder's panic
// is the layer's start error, naming the service, not a crash.
func TestPanickingServiceBuilderFailsTheStart(t *testing.T) {
	l := NewLayer()
	Provide(l, func(ctx context.Context) (*strings.Builder, func(context.Context) error, error) {
		panic("builder detail")
	})
	err := l.Start(context.Background())
	if err == nil || !strings.Contains(err.Error(), "*strings.Builder") || !strings.Contains(err.Error(), "builder detail") {
		t.Fatalf("err = %v", err)
	}
}
