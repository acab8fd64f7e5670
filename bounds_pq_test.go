package graft_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/limits"
	"github.com/graftgql/graft/persisted"
)

// commentQuery returns a distinct query of about size bytes that is mostly
// a comment: cheap to parse, large to keep.
func commentQuery(i, size int) string {
	head := fmt.Sprintf("# %d\n", i)
	return head + strings.Repeat("#", size-len(head)-10) + "\n{ hello }"
}

// TestDocumentCacheBoundedByBytes sends distinct large queries (200 of 30
// KB, about 6 MB) and checks that the document cache never holds more than
// its byte budget, and that a query over the per-entry share is answered
// but not cached.
func TestDocumentCacheBoundedByBytes(t *testing.T) {
	r := newTestRouter(t, graft.Config{DocumentCacheBytes: 2 << 20, MaxBodyBytes: 2 << 20})
	for i := range 200 {
		if got := post(t, r, commentQuery(i, 30<<10)); got.status != 200 || got.body.Data["hello"] != "world" {
			t.Fatalf("query %d: %d %s", i, got.status, got.raw)
		}
	}
	st := r.DocumentCacheStats()
	if st.Bytes > 2<<20 || st.MaxBytes != 2<<20 || st.MaxEntryBytes != 32<<10 || st.Evictions == 0 || st.Entries >= 200 {
		t.Fatalf("stats = %+v, want at most 2 MiB held after evictions", st)
	}
	if got := post(t, r, commentQuery(-1, 40<<10)); got.status != 200 || got.body.Data["hello"] != "world" {
		t.Fatalf("large query: %d %s", got.status, got.raw)
	}
	if r.DocumentCacheStats().Refused != 1 {
		t.Fatalf("a query over a 64th of the budget was cached: %+v", r.DocumentCacheStats())
	}
	if _, err := graft.NewRouter(testSchema(t), nil, graft.Config{DocumentCacheBytes: -1}); err == nil {
		t.Fatal("a negative DocumentCacheBytes was accepted")
	}
	if got := newTestRouter(t, graft.Config{}).Config().DocumentCacheBytes; got != graft.DefaultDocumentCacheBytes {
		t.Fatalf("default DocumentCacheBytes = %d", got)
	}
}

// TestAPQStoreBoundedByBytes registers distinct large queries over HTTP:
// the memory store keeps within its budget, refuses queries over
// MaxQueryBytes, and never stores a query a limit refuses.
func TestAPQStoreBoundedByBytes(t *testing.T) {
	store, err := persisted.NewMemoryStoreBytes(1000, 256<<10)
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRouter(t, graft.Config{
		PersistedQueries: &persisted.Options{Store: store, MaxQueryBytes: 20 << 10, RegistrationsPerMinute: -1},
		Complexity:       limits.Config{MaxFields: 3},
		MaxBodyBytes:     2 << 20,
	})
	register := func(q string) *reply {
		t.Helper()
		return send(t, r, "POST", "/graphql", pqBody(t, q, "sha256Hash", persisted.Hash(persisted.SHA256, q), 1))
	}
	for i := range 100 {
		if got := register(commentQuery(i, 16<<10)); got.status != 200 || got.body.Data["hello"] != "world" {
			t.Fatalf("registration %d: %d %s", i, got.status, got.raw)
		}
	}
	st := store.Stats()
	if st.Bytes > 256<<10 || st.Evictions == 0 || st.Entries+int(st.Evictions) != 100 {
		t.Fatalf("stats = %+v, want at most 256 KiB held, the rest evicted", st)
	}

	t.Run("a query over MaxQueryBytes runs and is not stored", func(t *testing.T) {
		q := commentQuery(-1, 30<<10)
		if got := register(q); got.status != 200 || got.body.Data["hello"] != "world" {
			t.Fatalf("registration: %d %s", got.status, got.raw)
		}
		hit := send(t, r, "POST", "/graphql", pqBody(t, "", "sha256Hash", persisted.Hash(persisted.SHA256, q), 1))
		if hit.code(0) != gqlerr.PersistedQueryNotFound {
			t.Fatalf("hash-only request: %d %s, want PERSISTED_QUERY_NOT_FOUND", hit.status, hit.raw)
		}
	})
	t.Run("a query a limit refuses is not stored", func(t *testing.T) {
		q := `{ hello greeting user authorization }`
		if got := register(q); got.status != 400 || got.code(0) != graft.CodeComplexityLimit {
			t.Fatalf("registration: %d %s", got.status, got.raw)
		}
		if _, ok, _ := store.Get(context.Background(), persisted.Hash(persisted.SHA256, q)); ok {
			t.Fatal("the refused query was stored")
		}
	})
}

// TestKnownHashWithAnotherQuery: a stored hash sent with a different query
// is refused, so what a proxy reads in the request is what runs.
func TestKnownHashWithAnotherQuery(t *testing.T) {
	r := newTestRouter(t, graft.Config{PersistedQueries: &persisted.Options{}})
	q := `{ hello }`
	h := persisted.Hash(persisted.SHA256, q)
	if got := send(t, r, "POST", "/graphql", pqBody(t, q, "sha256Hash", h, 1)); got.status != 200 {
		t.Fatalf("registration: %d %s", got.status, got.raw)
	}
	for _, method := range []string{"POST", "GET"} {
		var got *reply
		if method == "POST" {
			got = send(t, r, "POST", "/graphql", pqBody(t, `{ authorization }`, "sha256Hash", h, 1))
		} else {
			got = send(t, r, "GET", pqGet(`{ authorization }`, "sha256Hash", h), "")
		}
		if got.status != 400 || got.code(0) != gqlerr.PersistedQueryHashMismatch || got.body.Data != nil {
			t.Fatalf("%s: %d %s, want 400 PERSISTED_QUERY_HASH_MISMATCH", method, got.status, got.raw)
		}
	}
	if got := send(t, r, "POST", "/graphql", pqBody(t, q, "sha256Hash", h, 1)); got.status != 200 || got.body.Data["hello"] != "world" {
		t.Fatalf("the hash with its own query: %d %s", got.status, got.raw)
	}
}

// TestPersistedGETCacheControl: a persisted GET answer is public only for
// requests without credentials, and always varies on them.
func TestPersistedGETCacheControl(t *testing.T) {
	q := `{ hello }`
	h := persisted.Hash(persisted.SHA256, q)
	auth := func(ctx context.Context, raw *graft.AuthRequest) (context.Context, error) {
		if raw.Header("X-User") != "" {
			return context.WithValue(ctx, userKey{}, raw.Header("X-User")), nil
		}
		return ctx, nil
	}
	r := newTestRouter(t, graft.Config{PersistedQueries: &persisted.Options{}, Auth: auth})
	if got := send(t, r, "POST", "/graphql", pqBody(t, q, "sha256Hash", h, 1)); got.status != 200 {
		t.Fatalf("registration: %d %s", got.status, got.raw)
	}
	tests := []struct {
		name    string
		headers []string
		want    string
	}{
		{"anonymous", nil, persisted.DefaultCacheControl},
		{"Authorization", []string{"Authorization", "Bearer secret"}, "private, max-age=60"},
		{"Cookie", []string{"Cookie", "session=1"}, "private, max-age=60"},
		{"user accepted by Auth", []string{"X-User", "ada"}, "private, max-age=60"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := send(t, r, "GET", pqGet("", "sha256Hash", h), "", tc.headers...)
			if got.status != 200 || got.body.Data["hello"] != "world" {
				t.Fatalf("GET: %d %s", got.status, got.raw)
			}
			if cc := got.header.Get("Cache-Control"); cc != tc.want {
				t.Errorf("Cache-Control = %q, want %q", cc, tc.want)
			}
			if v := got.header.Values("Vary"); strings.Join(v, ", ") != "Accept, Authorization, Cookie" {
				t.Errorf("Vary = %q", v)
			}
		})
	}
	t.Run("CORS keeps its Vary", func(t *testing.T) {
		h := graft.CORS(graft.CORSOptions{AllowedOrigins: []string{"https://a.example"}})(r)
		got := send(t, h, "GET", pqGet("", "sha256Hash", persisted.Hash(persisted.SHA256, q)), "", "Origin", "https://a.example")
		vary := strings.Join(got.header.Values("Vary"), ", ")
		if !strings.Contains(vary, "Origin") || !strings.Contains(vary, "Authorization") {
			t.Fatalf("Vary = %q", vary)
		}
	})
}

// TestValidateHashOffIsNeverPublic: with ValidateHash off any client can
// register any query under a hash (APQ poisoning), so answers from the
// store are never publicly cacheable.
func TestValidateHashOffIsNeverPublic(t *testing.T) {
	r := newTestRouter(t, graft.Config{PersistedQueries: &persisted.Options{ValidateHash: boolp(false)}})
	h := persisted.Hash(persisted.SHA256, `{ hello }`)
	// The attacker registers their query under the hash of { hello }.
	if got := send(t, r, "POST", "/graphql", pqBody(t, `{ greeting }`, "sha256Hash", h, 1)); got.status != 200 {
		t.Fatalf("poisoning registration: %d %s", got.status, got.raw)
	}
	got := send(t, r, "GET", pqGet("", "sha256Hash", h), "")
	if got.status != http.StatusOK {
		t.Fatalf("GET: %d %s", got.status, got.raw)
	}
	if cc := got.header.Get("Cache-Control"); strings.Contains(cc, "public") || !strings.Contains(cc, "private") {
		t.Fatalf("Cache-Control = %q, want private", cc)
	}
}
