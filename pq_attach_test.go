package graft_test

import (
	"context"
	"net/http"
	"runtime"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/persisted"
)

// hashOnly sends a hash-only automatic persisted query; register sends
// the query with its hash.
func hashOnly(t *testing.T, h http.Handler, hash string) *reply {
	t.Helper()
	return send(t, h, http.MethodPost, "/graphql", `{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"`+hash+`"}}}`)
}

func register(t *testing.T, h http.Handler, query, hash string) *reply {
	t.Helper()
	return send(t, h, http.MethodPost, "/graphql", `{"query":`+quoteJSON(query)+`,"extensions":{"persistedQuery":{"version":1,"sha256Hash":"`+hash+`"}}}`)
}

// TestHashOnlyHitsFindTheirOwnDocument checks the documents routers keep
// beside the memory store's entries: routers of different schemas sharing
// one store each run the query with their own schema; an entry replaced
// in the store runs its new query; a document the cache let go is
// prepared again.
func TestHashOnlyHitsFindTheirOwnDocument(t *testing.T) {
	store, err := persisted.NewMemoryStore(10)
	if err != nil {
		t.Fatal(err)
	}
	opts := &persisted.Options{Mode: persisted.APQ, Store: store}
	a := newTestRouter(t, graft.Config{PersistedQueries: opts, DocumentCacheSize: 1})
	bs, err := blog.Schema()
	if err != nil {
		t.Fatal(err)
	}
	b, err := graft.NewRouter(bs, nil, graft.Config{PersistedQueries: opts})
	if err != nil {
		t.Fatal(err)
	}
	// greeting is a field of a's schema only.
	const q = "{ greeting }"
	h := persisted.Hash(persisted.SHA256, q)
	if rep := register(t, a, q, h); rep.status != http.StatusOK || rep.body.Data["greeting"] != "hi" {
		t.Fatalf("register: %d %s", rep.status, rep.raw)
	}
	for i := range 3 {
		if rep := hashOnly(t, a, h); rep.body.Data["greeting"] != "hi" {
			t.Fatalf("round %d, router a: %s", i, rep.raw)
		}
		if rep := hashOnly(t, b, h); rep.body.Data != nil || rep.code(0) != "GRAPHQL_VALIDATION_FAILED" {
			t.Fatalf("round %d, router b: %s, want its own validation error", i, rep.raw)
		}
	}

	// The store's entry replaced, with another query under the same hash.
	const other = `{ echo(text: "again") }`
	if err := store.Set(context.Background(), h, other); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if rep := hashOnly(t, a, h); rep.body.Data["echo"] != "again" {
			t.Fatalf("round %d after registering again: %s", i, rep.raw)
		}
	}

	// Router a's cache holds one document: another query evicts it.
	if rep := post(t, a, "{ hello }"); rep.body.Data["hello"] != "world" {
		t.Fatalf("hello: %s", rep.raw)
	}
	runtime.GC()
	runtime.GC()
	if rep := hashOnly(t, a, h); rep.body.Data["echo"] != "again" {
		t.Fatalf("after the document was evicted: %s", rep.raw)
	}
	if st := a.DocumentCacheStats(); st.Entries != 1 {
		t.Fatalf("document cache holds %d entries, want the bound of 1", st.Entries)
	}
}
