package graft

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/transport/httpstream"
	"github.com/graftgql/graft/internal/transport/ws"

	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/persisted"
)

// TestPlainPostSkipsOnlyNonStreamingRequests checks the shortcut of
// ServeHTTP: a request plainPost lets through is one no streaming
// transport takes, and the streaming requests are not let through.
func TestPlainPostSkipsOnlyNonStreamingRequests(t *testing.T) {
	r, err := NewRouter(helloSchema(t), nil, Config{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		method  string
		headers map[string]string
		plain   bool
	}{
		{"POST", nil, true},
		{"POST", map[string]string{"Accept": "application/json"}, true},
		{"POST", map[string]string{"Accept": "application/graphql-response+json, application/json"}, true},
		{"POST", map[string]string{"Accept": "*/*"}, true},
		{"POST", map[string]string{"Accept": "text/event-stream"}, false},
		{"POST", map[string]string{"Accept": "multipart/mixed;subscriptionSpec=1.0, application/json"}, false},
		{"POST", map[string]string{"Accept": "application/json", "X-GraphQL-Event-Stream-Token": "t"}, false},
		{"GET", map[string]string{"Connection": "Upgrade", "Upgrade": "websocket"}, false},
		{"PUT", nil, false},
	}
	for _, c := range cases {
		req := httptest.NewRequest(c.method, "/graphql", nil)
		for k, v := range c.headers {
			req.Header.Set(k, v)
		}
		if got := plainPost(req); got != c.plain {
			t.Errorf("%s %v: plainPost = %v, want %v", c.method, c.headers, got, c.plain)
		}
		streaming := ws.Match(req) || r.sse.Match(req) || httpstream.Match(req.Header.Values("Accept")) != nil
		if c.plain && streaming {
			t.Errorf("%s %v: let through, but a streaming transport takes it", c.method, c.headers)
		}
	}
}

// TestQueryReadInPlaceIsCopiedWhereKept sends queries whose text the
// decoder reads in place from pooled body buffers, then other bodies
// that reuse those buffers: the document cache and the APQ store, which
// keep query texts, must hold copies, so the first queries are still
// found and answered.
func TestQueryReadInPlaceIsCopiedWhereKept(t *testing.T) {
	r, err := NewRouter(helloSchema(t), nil, Config{PersistedQueries: &persisted.Options{Mode: persisted.APQ}})
	if err != nil {
		t.Fatal(err)
	}
	send := func(body string) string {
		t.Helper()
		req := httptest.NewRequest("POST", "/graphql", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, req)
		return rec.Body.String()
	}
	const want = `{"data":{"hello":"world"}}`
	queries := []string{`{ hello }`, `{hello  }`, `{  hello}`, "{\\n hello}", "{hello\\n }"}
	for _, q := range queries {
		h := persisted.Hash(persisted.SHA256, strings.ReplaceAll(q, `\n`, "\n"))
		if got := send(`{"query":"` + q + `","extensions":{"persistedQuery":{"version":1,"sha256Hash":"` + h + `"}}}`); got != want {
			t.Fatalf("%s: %s", q, got)
		}
	}
	for range 3 {
		for _, q := range queries {
			text := strings.ReplaceAll(q, `\n`, "\n")
			if got := send(`{"query":"` + q + `"}`); got != want {
				t.Fatalf("%q again: %s", text, got)
			}
			h := persisted.Hash(persisted.SHA256, text)
			if got := send(`{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"` + h + `"}}}`); got != want {
				t.Fatalf("%q by its hash: %s", text, got)
			}
		}
	}
	if st := r.DocumentCacheStats(); st.Entries != len(queries) {
		t.Fatalf("document cache holds %d entries, want %d", st.Entries, len(queries))
	}
}

// TestStaticAnalysisUnlessACostReadsAVariable checks which operations get
// their limits analysis once, when prepared: those whose variables no
// declared cost function reads.
func TestStaticAnalysisUnlessACostReadsAVariable(t *testing.T) {
	s, err := blog.Schema()
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRouter(s, nil, Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		query  string
		static bool
	}{
		{`{ authors(first: 2) { id } }`, true},
		{`query A($id: ID!) { author(id: $id) { ...F posts(first: 20) { ...P } } } fragment F on Author { id name } fragment P on Post { id title }`, true},
		{`query($n: Int) { authors(first: $n) { id } }`, false},
		{`query($n: Int) { author(id: "a1") { ...F } } fragment F on Author { posts(first: $n) { id } }`, false},
		{`query($n: Int) { author(id: "a1") { ... on Author { posts(first: $n) { id } } } }`, false},
	} {
		d, errs := r.prepare(c.query)
		if errs != nil {
			t.Fatalf("%s: %v", c.query, errs)
		}
		op, _ := d.doc.Operation("")
		if _, ok := d.static[op.AST()]; ok != c.static {
			t.Errorf("%s: analysed once %v, want %v", c.query, ok, c.static)
		}
	}
}

// TestHeaderLookup: RequestInfo.Header over net/http answers every name as
// http.Header.Get does, whatever its case, while a name in canonical form
// is found without canonicalizing it.
func TestHeaderLookup(t *testing.T) {
	h := http.Header{}
	h.Set("Authorization", "Bearer a")
	h.Set("Traceparent", "00-1")
	h.Set("X-Request-Id", "r1")
	h.Set("Content-Type", "application/json")
	h["lower-raw"] = []string{"kept as set"} // set into the map directly
	names := []string{"Authorization", "authorization", "AUTHORIZATION", "Traceparent", "traceparent",
		"tRACEPARENT", "X-Request-Id", "x-request-id", "X-REQUEST-ID", "X-Request-ID", "Content-Type",
		"content-type", "Baggage", "baggage", "Tracestate", "tracestate", "Cookie", "cookie", "",
		"-", "X--Y", "bad name", "Bad Name", "X_Request_Id", "1x"}
	for _, name := range names {
		if got, want := headerLookup(h).get(name), h.Get(name); got != want {
			t.Errorf("get(%q) = %q, want %q (http.Header.Get)", name, got, want)
		}
	}
	// The first five are the names get answers by comparison on a miss.
	for _, name := range []string{"Traceparent", "Tracestate", "Baggage", "Authorization", "Cookie", "X-Request-Id", "A-B-C", "X--Y", "", "1x-Y2"} {
		if !isCanonicalHeaderKey(name) || http.CanonicalHeaderKey(name) != name {
			t.Errorf("%q: isCanonicalHeaderKey %v, CanonicalHeaderKey %q", name, isCanonicalHeaderKey(name), http.CanonicalHeaderKey(name))
		}
	}
	for _, name := range []string{"authorization", "X-request-id", "BAGGAGE", "a", "X-Y-z"} {
		if isCanonicalHeaderKey(name) || http.CanonicalHeaderKey(name) == name {
			t.Errorf("%q: isCanonicalHeaderKey %v, CanonicalHeaderKey %q", name, isCanonicalHeaderKey(name), http.CanonicalHeaderKey(name))
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = headerLookup(h).get("Traceparent") + headerLookup(h).get("Baggage") }); n != 0 {
		t.Errorf("a canonical name's lookup allocates %v times", n)
	}
}
