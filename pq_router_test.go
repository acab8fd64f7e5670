package graft_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/internal/testenv"
	"github.com/graftgql/graft/persisted"
	"github.com/graftgql/graft/persisted/redisstore"
	"github.com/redis/go-redis/v9"
)

func boolp(b bool) *bool { return &b }

func pqBody(t testing.TB, query, hashField, hash string, version any) string {
	t.Helper()
	m := map[string]any{"extensions": map[string]any{"persistedQuery": map[string]any{"version": version, hashField: hash}}}
	if query != "" {
		m["query"] = query
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func pqGet(query, hashField, hash string) string {
	ext, _ := json.Marshal(map[string]any{"persistedQuery": map[string]any{"version": 1, hashField: hash}})
	v := url.Values{"extensions": {string(ext)}}
	if query != "" {
		v.Set("query", query)
	}
	return "/graphql?" + v.Encode()
}

// TestAPQOverHTTP walks the APQ state machine through the router, over
// POST and GET, with both hash algorithms.
func TestAPQOverHTTP(t *testing.T) {
	for _, alg := range []struct{ name, field string }{{persisted.SHA256, "sha256Hash"}, {persisted.SHA512, "sha512Hash"}} {
		t.Run(alg.name, func(t *testing.T) {
			r := newTestRouter(t, graft.Config{PersistedQueries: &persisted.Options{Mode: persisted.APQ, HashAlgorithm: alg.name}})
			q := `{ hello }`
			h := persisted.Hash(alg.name, q)

			miss := send(t, r, "POST", "/graphql", pqBody(t, "", alg.field, h, 1))
			if miss.status != 200 || miss.code(0) != "PERSISTED_QUERY_NOT_FOUND" || miss.body.Errors[0]["message"] != "PersistedQueryNotFound" {
				t.Fatalf("miss: %d %s", miss.status, miss.raw)
			}
			if cc := miss.header.Get("Cache-Control"); cc != "private, no-cache, must-revalidate" {
				t.Fatalf("miss Cache-Control = %q", cc)
			}
			reg := send(t, r, "POST", "/graphql", pqBody(t, q, alg.field, strings.ToUpper(h), 1))
			if reg.status != 200 || reg.body.Data["hello"] != "world" {
				t.Fatalf("register: %d %s", reg.status, reg.raw)
			}
			hit := send(t, r, "POST", "/graphql", pqBody(t, "", alg.field, h, 1))
			if hit.status != 200 || hit.body.Data["hello"] != "world" {
				t.Fatalf("hit: %d %s", hit.status, hit.raw)
			}
			// A known hash sent with a different query is refused: what a
			// proxy reads in the request is what runs.
			other := send(t, r, "POST", "/graphql", pqBody(t, `{ greeting }`, alg.field, h, 1))
			if other.status != 400 || other.code(0) != "PERSISTED_QUERY_HASH_MISMATCH" || other.body.Data != nil {
				t.Fatalf("known hash with another query: %d %s", other.status, other.raw)
			}
			get := send(t, r, "GET", pqGet("", alg.field, h), "")
			if get.status != 200 || get.body.Data["hello"] != "world" || get.header.Get("Cache-Control") == "" {
				t.Fatalf("GET hit: %d %q %s", get.status, get.header.Get("Cache-Control"), get.raw)
			}
		})
	}
}

func TestAPQErrorsOverHTTP(t *testing.T) {
	r := newTestRouter(t, graft.Config{PersistedQueries: &persisted.Options{Mode: persisted.APQ}})
	q := `{ hello }`
	h := persisted.Hash(persisted.SHA256, q)
	wrong := persisted.Hash(persisted.SHA256, `{ greeting }`)
	tests := []struct {
		name       string
		body       string
		wantStatus int
		wantCode   string
		wantMsg    string
		wantExt    map[string]any
	}{
		{"version 2", pqBody(t, q, "sha256Hash", h, 2), 400, "PERSISTED_QUERY_VERSION_NOT_SUPPORTED", "Unsupported persisted query version: 2", map[string]any{"version": 2.0}},
		{"hash mismatch", pqBody(t, q, "sha256Hash", wrong, 1), 400, "PERSISTED_QUERY_HASH_MISMATCH", "Provided query does not match hash", map[string]any{"providedHash": wrong, "computedHash": h}},
		{"hash not hex", pqBody(t, "", "sha256Hash", strings.Repeat("z", 64), 1), 400, "BAD_REQUEST", "", nil},
		{"hash too short", pqBody(t, "", "sha256Hash", "abc", 1), 400, "BAD_REQUEST", "", nil},
		{"extension not an object", `{"extensions":{"persistedQuery":"yes"}}`, 400, "BAD_REQUEST", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := send(t, r, "POST", "/graphql", tc.body)
			if got.status != tc.wantStatus || got.code(0) != tc.wantCode {
				t.Fatalf("got %d %s", got.status, got.raw)
			}
			if tc.wantMsg != "" && got.body.Errors[0]["message"] != tc.wantMsg {
				t.Fatalf("message = %v", got.body.Errors[0]["message"])
			}
			ext := got.body.Errors[0]["extensions"].(map[string]any)
			for k, v := range tc.wantExt {
				if ext[k] != v {
					t.Fatalf("extensions[%s] = %v, want %v", k, ext[k], v)
				}
			}
		})
	}
}

func TestAPQNeverStoresAnInvalidQuery(t *testing.T) {
	store, err := persisted.NewMemoryStore(10)
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRouter(t, graft.Config{PersistedQueries: &persisted.Options{Mode: persisted.APQ, Store: store}})
	bad := `{ nope }`
	h := persisted.Hash(persisted.SHA256, bad)
	got := send(t, r, "POST", "/graphql", pqBody(t, bad, "sha256Hash", h, 1))
	if got.status != 400 || got.code(0) != "GRAPHQL_VALIDATION_FAILED" {
		t.Fatalf("got %d %s", got.status, got.raw)
	}
	if _, found, _ := store.Get(context.Background(), h); found {
		t.Fatal("an invalid query was stored")
	}
	if got := send(t, r, "POST", "/graphql", pqBody(t, "", "sha256Hash", h, 1)); got.code(0) != "PERSISTED_QUERY_NOT_FOUND" {
		t.Fatalf("hash-only after a failed registration: %s", got.raw)
	}
}

func TestAPQValidateHashOff(t *testing.T) {
	r := newTestRouter(t, graft.Config{PersistedQueries: &persisted.Options{Mode: persisted.APQ, ValidateHash: boolp(false)}})
	h := persisted.Hash(persisted.SHA256, "any other text")
	if got := send(t, r, "POST", "/graphql", pqBody(t, `{ hello }`, "sha256Hash", h, 1)); got.status != 200 || got.body.Data["hello"] != "world" {
		t.Fatalf("register: %d %s", got.status, got.raw)
	}
	if got := send(t, r, "POST", "/graphql", pqBody(t, "", "sha256Hash", h, 1)); got.body.Data["hello"] != "world" {
		t.Fatalf("hit: %s", got.raw)
	}
}

func TestAPQGetRules(t *testing.T) {
	r := newTestRouter(t, graft.Config{PersistedQueries: &persisted.Options{Mode: persisted.APQ}})
	q := `{ hello }`
	h := persisted.Hash(persisted.SHA256, q)
	// A GET carrying hash and query registers (urql does this), and is cacheable.
	reg := send(t, r, "GET", pqGet(q, "sha256Hash", h), "")
	if reg.status != 200 || reg.body.Data["hello"] != "world" {
		t.Fatalf("GET register: %d %s", reg.status, reg.raw)
	}
	hit := send(t, r, "GET", pqGet("", "sha256Hash", h), "")
	if hit.status != 200 || hit.header.Get("Cache-Control") != "public, max-age=60" {
		t.Fatalf("GET hit: %d %q", hit.status, hit.header.Get("Cache-Control"))
	}
	// Errors are never cacheable.
	fq := `{ fail }`
	send(t, r, "GET", pqGet(fq, "sha256Hash", persisted.Hash(persisted.SHA256, fq)), "")
	failed := send(t, r, "GET", pqGet("", "sha256Hash", persisted.Hash(persisted.SHA256, fq)), "")
	if failed.status != 200 || len(failed.body.Errors) == 0 || failed.header.Get("Cache-Control") != "" {
		t.Fatalf("GET with errors: %d %q %s", failed.status, failed.header.Get("Cache-Control"), failed.raw)
	}
	// Mutations never run over GET, persisted or not.
	mq := `mutation { rename(name: "x") }`
	mh := persisted.Hash(persisted.SHA256, mq)
	send(t, r, "POST", "/graphql", pqBody(t, mq, "sha256Hash", mh, 1))
	if got := send(t, r, "GET", pqGet("", "sha256Hash", mh), ""); got.status != 405 || got.header.Get("Allow") != "POST" {
		t.Fatalf("persisted mutation over GET: %d %s", got.status, got.raw)
	}

	off := newTestRouter(t, graft.Config{PersistedQueries: &persisted.Options{Mode: persisted.APQ, EnableGet: boolp(false)}})
	if got := send(t, off, "GET", pqGet("", "sha256Hash", h), ""); got.status != 405 {
		t.Fatalf("EnableGet off: %d %s", got.status, got.raw)
	}
}

func TestSafelistOverHTTP(t *testing.T) {
	listed := `{ hello }`
	h := persisted.Hash(persisted.SHA256, listed)
	store, err := persisted.NewSafelistStore(map[string]string{h: listed})
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRouter(t, graft.Config{PersistedQueries: &persisted.Options{Mode: persisted.Safelist, Store: store}})
	unlisted := persisted.Hash(persisted.SHA256, `{ greeting }`)
	tests := []struct {
		name       string
		method     string
		target     string
		body       string
		wantStatus int
		wantCode   string
	}{
		{"listed hash", "POST", "/graphql", pqBody(t, "", "sha256Hash", h, 1), 200, ""},
		{"listed hash over GET", "GET", pqGet("", "sha256Hash", h), "", 200, ""},
		{"unlisted hash", "POST", "/graphql", pqBody(t, "", "sha256Hash", unlisted, 1), 403, "PERSISTED_QUERY_NOT_ALLOWED"},
		{"unlisted hash with its query", "POST", "/graphql", pqBody(t, `{ greeting }`, "sha256Hash", unlisted, 1), 403, "PERSISTED_QUERY_NOT_ALLOWED"},
		{"listed plain query", "POST", "/graphql", `{"query":"{ hello }"}`, 200, ""},
		{"unlisted plain query", "POST", "/graphql", `{"query":"{ greeting }"}`, 403, "PERSISTED_QUERY_NOT_ALLOWED"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := send(t, r, tc.method, tc.target, tc.body)
			if got.status != tc.wantStatus {
				t.Fatalf("status %d, want %d: %s", got.status, tc.wantStatus, got.raw)
			}
			if tc.wantCode == "" {
				if got.body.Data["hello"] != "world" {
					t.Fatalf("body %s", got.raw)
				}
				return
			}
			if got.code(0) != tc.wantCode || got.body.Errors[0]["message"] != "Persisted query not in safelist" {
				t.Fatalf("body %s", got.raw)
			}
			if ext := got.body.Errors[0]["extensions"].(map[string]any); ext["hash"] == nil {
				t.Fatalf("no hash in %v", ext)
			}
		})
	}
	strict := newTestRouter(t, graft.Config{PersistedQueries: &persisted.Options{Mode: persisted.Safelist, Store: store, RequireHash: true}})
	if got := send(t, strict, "POST", "/graphql", `{"query":"{ hello }"}`); got.status != 403 {
		t.Fatalf("RequireHash: plain listed query answered %d", got.status)
	}
}

func TestSafelistRefusesInvalidEntriesAtStart(t *testing.T) {
	bad := `{ nope }`
	store, err := persisted.NewSafelistStore(map[string]string{persisted.Hash(persisted.SHA256, bad): bad})
	if err != nil {
		t.Fatal(err)
	}
	_, err = graft.NewRouter(testSchema(t), nil, graft.Config{PersistedQueries: &persisted.Options{Mode: persisted.Safelist, Store: store}})
	if err == nil || !strings.Contains(err.Error(), persisted.Hash(persisted.SHA256, bad)) {
		t.Fatalf("err = %v", err)
	}
}

func TestNewPersistedQueriesRouterDefaultsToAPQ(t *testing.T) {
	r, err := graft.NewPersistedQueriesRouter(testSchema(t), nil, graft.Config{Logger: quietLogger})
	if err != nil {
		t.Fatal(err)
	}
	h := persisted.Hash(persisted.SHA256, `{ hello }`)
	if got := send(t, r, "POST", "/graphql", pqBody(t, "", "sha256Hash", h, 1)); got.code(0) != "PERSISTED_QUERY_NOT_FOUND" {
		t.Fatalf("got %s", got.raw)
	}
}

// TestAPQSharedThroughRedis runs two routers on one real Redis: what one
// registers, the other serves.
func TestAPQSharedThroughRedis(t *testing.T) {
	addr, _ := testenv.StartRedis(t)
	mk := func() *graft.Router {
		c := redis.NewClient(&redis.Options{Addr: addr})
		t.Cleanup(func() { _ = c.Close() })
		return newTestRouter(t, graft.Config{PersistedQueries: &persisted.Options{Mode: persisted.APQ, Store: redisstore.New(c, redisstore.Options{Prefix: "test:"})}})
	}
	a, b := mk(), mk()
	q := `{ hello }`
	h := persisted.Hash(persisted.SHA256, q)
	if got := send(t, a, "POST", "/graphql", pqBody(t, q, "sha256Hash", h, 1)); got.status != 200 {
		t.Fatalf("register on a: %d %s", got.status, got.raw)
	}
	if got := send(t, b, "POST", "/graphql", pqBody(t, "", "sha256Hash", h, 1)); got.status != 200 || got.body.Data["hello"] != "world" {
		t.Fatalf("hit on b: %d %s", got.status, got.raw)
	}
}
