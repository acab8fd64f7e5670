package graft_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/incremental"
	"github.com/graftgql/graft/limits"
	"github.com/graftgql/graft/persisted"
)

// incServer serves the incremental example with cfg.
func incServer(t *testing.T, cfg graft.Config) *httptest.Server {
	t.Helper()
	s, err := incremental.Schema()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return srv
}

// incQuery is the query the format tests send: one deferred fragment.
const incQuery = `{"query":"{ fastField item(id: \"1\") { id ... @defer(label: \"D\") { slowField } } }"}`

const (
	partHead = "\r\ncontent-type: application/json; charset=utf-8\r\n\r\n"
	partEnd  = "\r\n---"
)

func TestIncrementalMultipartFormats(t *testing.T) {
	srv := incServer(t, graft.Config{})
	current := "\r\n---" +
		partHead + `{"data":{"fastField":"fast","item":{"id":"1"}},"pending":[{"id":"0","path":["item"],"label":"D"}],"hasNext":true}` + partEnd +
		partHead + `{"incremental":[{"data":{"slowField":"slow 1"},"id":"0"}],"completed":[{"id":"0"}],"hasNext":false}` + partEnd + "--\r\n"
	v2022 := "\r\n---" +
		partHead + `{"data":{"fastField":"fast","item":{"id":"1"}},"hasNext":true}` + partEnd +
		partHead + `{"incremental":[{"data":{"slowField":"slow 1"},"path":["item"],"label":"D"}],"hasNext":false}` + partEnd + "--\r\n"
	whole := `{"data":{"fastField":"fast","item":{"id":"1","slowField":"slow 1"}}}`
	tests := []struct {
		accept, contentType, body string
	}{
		{"multipart/mixed;incrementalSpec=v0.2", `multipart/mixed;boundary="-";incrementalSpec=v0.2`, current},
		{`multipart/mixed; incrementalSpec="v0.2", application/graphql-response+json;q=0.9`, `multipart/mixed;boundary="-";incrementalSpec=v0.2`, current},
		{"multipart/mixed;deferSpec=20220824", `multipart/mixed;boundary="-";deferSpec=20220824`, v2022},
		{"multipart/mixed;deferSpec=20220824,application/json", `multipart/mixed;boundary="-";deferSpec=20220824`, v2022},
		{"multipart/mixed", `multipart/mixed;boundary="-";deferSpec=20220824`, v2022},
		{"multipart/mixed, application/graphql-response+json, application/json", `multipart/mixed;boundary="-";deferSpec=20220824`, v2022},
		{"application/json", "application/json; charset=utf-8", whole},
		{"application/graphql-response+json", "application/graphql-response+json; charset=utf-8", whole},
	}
	for _, tc := range tests {
		t.Run(tc.accept, func(t *testing.T) {
			resp := streamPost(t, srv, tc.accept, incQuery)
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != tc.contentType || string(body) != tc.body {
				t.Fatalf("status %d, content type %q, body\n%q\nwant %q\n%q", resp.StatusCode, resp.Header.Get("Content-Type"), body, tc.contentType, tc.body)
			}
			if strings.HasPrefix(tc.contentType, "multipart") && resp.Header.Get("Cache-Control") != "no-store" {
				t.Errorf("Cache-Control %q, want no-store", resp.Header.Get("Cache-Control"))
			}
		})
	}
}

func TestIncrementalWithoutDeferIsJSON(t *testing.T) {
	srv := incServer(t, graft.Config{})
	for _, q := range []string{`{"query":"{ fastField }"}`, `{"query":"{ item(id: \"1\") { ... @defer(if: false) { name } } }"}`} {
		resp := streamPost(t, srv, "multipart/mixed;incrementalSpec=v0.2, application/json", q)
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/") || strings.Contains(string(body), "hasNext\":true") {
			t.Errorf("%s: status %d, content type %q, body %s", q, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	}
	// Errors before the stream starts are ordinary responses.
	resp := streamPost(t, srv, "multipart/mixed;incrementalSpec=v0.2", `{"query":"{ item(id: \"1\") { ... @defer { nope } } }"}`)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 400 || !strings.Contains(string(body), "GRAPHQL_VALIDATION_FAILED") {
		t.Errorf("status %d, body %s", resp.StatusCode, body)
	}
}

// parts splits a multipart incremental body into its JSON payloads.
func parts(t *testing.T, body string) []string {
	t.Helper()
	if !strings.HasPrefix(body, "\r\n---") || !strings.HasSuffix(body, "\r\n-----\r\n") {
		t.Fatalf("not a multipart incremental body: %q", body)
	}
	var out []string
	for _, p := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(body, "\r\n---"), "--\r\n"), "\r\n---") {
		if p == "" {
			continue
		}
		if !strings.HasPrefix(p, partHead) {
			t.Fatalf("part %q", p)
		}
		out = append(out, strings.TrimPrefix(p, partHead))
	}
	return out
}

func TestIncrementalStreamOverHTTP(t *testing.T) {
	srv := incServer(t, graft.Config{})
	q := `{"query":"{ items(count: 3) @stream(initialCount: 1) { id name } }"}`
	resp := streamPost(t, srv, "multipart/mixed;incrementalSpec=v0.2", q)
	body, _ := io.ReadAll(resp.Body)
	ps := parts(t, string(body))
	if ps[0] != `{"data":{"items":[{"id":"1","name":"Item 1"}]},"pending":[{"id":"0","path":["items"]}],"hasNext":true}` {
		t.Fatalf("initial %s", ps[0])
	}
	all := strings.Join(ps[1:], "")
	for _, w := range []string{`{"id":"2","name":"Item 2"}`, `{"id":"3","name":"Item 3"}`, `"completed":[{"id":"0"}]`} {
		if !strings.Contains(all, w) {
			t.Errorf("payloads lack %s: %s", w, all)
		}
	}
	if !strings.HasSuffix(ps[len(ps)-1], `"hasNext":false}`) {
		t.Errorf("last payload %s", ps[len(ps)-1])
	}

	resp = streamPost(t, srv, "multipart/mixed;deferSpec=20220824", q)
	body, _ = io.ReadAll(resp.Body)
	ps = parts(t, string(body))
	all = strings.Join(ps[1:], "")
	for _, w := range []string{`{"items":[{"id":"2","name":"Item 2"}],"path":["items",1]}`, `{"items":[{"id":"3","name":"Item 3"}],"path":["items",2]}`} {
		if !strings.Contains(all, w) {
			t.Errorf("2022 payloads lack %s: %s", w, all)
		}
	}
}

func TestIncrementalErrorsOverHTTP(t *testing.T) {
	srv := incServer(t, graft.Config{})
	q := `{"query":"{ item(id: \"1\") { id ... @defer { failing } } }"}`
	resp := streamPost(t, srv, "multipart/mixed;incrementalSpec=v0.2", q)
	body, _ := io.ReadAll(resp.Body)
	ps := parts(t, string(body))
	want := `{"incremental":[{"errors":[{"message":"failing 1","locations":[{"line":1,"column":35}],"path":["item","failing"]}],"data":{"failing":null},"id":"0"}],"completed":[{"id":"0"}],"hasNext":false}`
	if len(ps) != 2 || ps[1] != want {
		t.Fatalf("payloads %q", ps)
	}
	q = `{"query":"{ item(id: \"1\") { id ... @defer { failingNonNull } } }"}`
	resp = streamPost(t, srv, "multipart/mixed;deferSpec=20220824", q)
	body, _ = io.ReadAll(resp.Body)
	ps = parts(t, string(body))
	want = `{"incremental":[{"errors":[{"message":"failingNonNull 1","locations":[{"line":1,"column":35}],"path":["item","failingNonNull"]}],"data":null,"path":["item"]}],"hasNext":false}`
	if len(ps) != 2 || ps[1] != want || ps[0] != `{"data":{"item":{"id":"1"}},"hasNext":true}` {
		t.Fatalf("payloads %q", ps)
	}
}

func TestIncrementalOverSSEAndWebSocket(t *testing.T) {
	srv := incServer(t, graft.Config{})
	initial := `{"data":{"fastField":"fast","item":{"id":"1"}},"pending":[{"id":"0","path":["item"],"label":"D"}],"hasNext":true}`
	next := `{"incremental":[{"data":{"slowField":"slow 1"},"id":"0"}],"completed":[{"id":"0"}],"hasNext":false}`
	// Over SSE: the format a multipart range of the Accept header names,
	// else the 2022 format.
	for _, tc := range []struct{ accept, initial, next string }{
		{"text/event-stream, multipart/mixed;incrementalSpec=v0.2", initial, next},
		{"text/event-stream", `{"data":{"fastField":"fast","item":{"id":"1"}},"hasNext":true}`,
			`{"incremental":[{"data":{"slowField":"slow 1"},"path":["item"],"label":"D"}],"hasNext":false}`},
	} {
		resp := streamPost(t, srv, tc.accept, incQuery)
		body, _ := io.ReadAll(resp.Body)
		want := ":\n\nevent: next\ndata: " + tc.initial + "\n\nevent: next\ndata: " + tc.next + "\n\nevent: complete\ndata: \n\n"
		if string(body) != want {
			t.Fatalf("SSE %s\n got %q\nwant %q", tc.accept, body, want)
		}
	}

	ws := dialWS(t, srv)
	ws.send(`{"type":"connection_init"}`)
	ws.expect(`{"type":"connection_ack"}`)
	ws.send(`{"id":"1","type":"subscribe","payload":` + incQuery + `}`)
	ws.expect(`{"id":"1","type":"next","payload":` + initial + `}`)
	ws.expect(`{"id":"1","type":"next","payload":` + next + `}`)
	ws.expect(`{"id":"1","type":"complete"}`)
}

func TestIncrementalBatchRefused(t *testing.T) {
	srv := incServer(t, graft.Config{MaxBatch: 4})
	resp := streamPost(t, srv, "application/json", `[{"query":"{ fastField }"},`+incQuery+`]`)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.HasPrefix(string(body), `[{"data":{"fastField":"fast"}},{"errors":[{"message":"@defer and @stream cannot be used in a batched request: send the operation on its own","extensions":{"code":"BAD_REQUEST"}}]`) {
		t.Fatalf("status %d body %s", resp.StatusCode, body)
	}
}

// tokenStatus asks the server for the progress of slowField's token.
func tokenStatus(t *testing.T, srv *httptest.Server, token string) string {
	t.Helper()
	resp := streamPost(t, srv, "application/json", `{"query":"{ tokenStatus(token: \"`+token+`\") }"}`)
	var out struct {
		Data struct{ TokenStatus *string } `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if out.Data.TokenStatus == nil {
		return ""
	}
	return *out.Data.TokenStatus
}

func TestIncrementalClientGoneCancelsWork(t *testing.T) {
	srv := incServer(t, graft.Config{})
	for _, accept := range []string{"multipart/mixed;incrementalSpec=v0.2", "multipart/mixed;deferSpec=20220824", "text/event-stream"} {
		token := "gone-" + accept
		q := `{"query":"{ fastField ... @defer { slowField(delayMs: 600000, token: \"` + strings.ReplaceAll(token, `"`, `\"`) + `\") } }"}`
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/graphql", strings.NewReader(q))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", accept)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		br := bufio.NewReader(resp.Body)
		readUntil(t, br, `"hasNext":true}`)
		waitStatus(t, srv, token, "started")
		resp.Body.Close() // the client goes away
		waitStatus(t, srv, token, "cancelled")
	}
}

// waitStatus waits until token's status is want.
func waitStatus(t *testing.T, srv *httptest.Server, token, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for tokenStatus(t, srv, token) != want {
		if time.Now().After(deadline) {
			t.Fatalf("token %s: status %q, want %q", token, tokenStatus(t, srv, token), want)
		}
		runtime.Gosched()
	}
}

func TestIncrementalTimeoutCoversTheStream(t *testing.T) {
	srv := incServer(t, graft.Config{Timeout: 50 * time.Millisecond})
	q := `{"query":"{ fastField ... @defer { slowField(delayMs: 600000) } }"}`
	resp := streamPost(t, srv, "multipart/mixed;incrementalSpec=v0.2", q)
	body, _ := io.ReadAll(resp.Body)
	ps := parts(t, string(body))
	last := ps[len(ps)-1]
	if len(ps) != 2 || !strings.Contains(last, `"code":"REQUEST_TIMEOUT"`) || !strings.HasSuffix(last, `"hasNext":false}`) {
		t.Fatalf("payloads %q", ps)
	}
}

func TestIncrementalLimitsCountDeferredSelections(t *testing.T) {
	srv := incServer(t, graft.Config{Complexity: limits.Config{MaxDepth: 3}})
	q := `{"query":"{ item(id: \"1\") { ... @defer { child { child { child { id } } } } } }"}`
	resp := streamPost(t, srv, "multipart/mixed;incrementalSpec=v0.2", q)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 400 || !strings.Contains(string(body), `"limitType":"`+limits.LimitDepth+`"`) {
		t.Fatalf("status %d body %s", resp.StatusCode, body)
	}
}

func TestIncrementalPersistedQueries(t *testing.T) {
	query := `{ fastField item(id: "1") { id ... @defer(label: "D") { slowField } } }`
	sum := sha256.Sum256([]byte(query))
	hash := hex.EncodeToString(sum[:])
	srv := incServer(t, graft.Config{PersistedQueries: &persisted.Options{}})
	ext := `"extensions":{"persistedQuery":{"version":1,"sha256Hash":"` + hash + `"}}`
	resp := streamPost(t, srv, "multipart/mixed;incrementalSpec=v0.2", `{`+ext+`}`)
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), "PERSISTED_QUERY_NOT_FOUND") {
		t.Fatalf("first: %s", body)
	}
	qj, _ := json.Marshal(query)
	resp = streamPost(t, srv, "multipart/mixed;incrementalSpec=v0.2", `{"query":`+string(qj)+`,`+ext+`}`)
	body, _ = io.ReadAll(resp.Body)
	if len(parts(t, string(body))) != 2 {
		t.Fatalf("register: %q", body)
	}
	resp = streamPost(t, srv, "multipart/mixed;incrementalSpec=v0.2", `{`+ext+`}`)
	body, _ = io.ReadAll(resp.Body)
	ps := parts(t, string(body))
	if len(ps) != 2 || ps[1] != `{"incremental":[{"data":{"slowField":"slow 1"},"id":"0"}],"completed":[{"id":"0"}],"hasNext":false}` {
		t.Fatalf("by hash: %q", ps)
	}
}

func TestIncrementalDirectivesInIntrospection(t *testing.T) {
	srv := incServer(t, graft.Config{})
	resp := streamPost(t, srv, "application/json", `{"query":"{ __schema { directives { name locations args { name defaultValue type { kind ofType { name } } } } } }"}`)
	body, _ := io.ReadAll(resp.Body)
	for _, w := range []string{
		`{"name":"defer","locations":["FRAGMENT_SPREAD","INLINE_FRAGMENT"],"args":[{"name":"if","defaultValue":"true","type":{"kind":"NON_NULL","ofType":{"name":"Boolean"}}},{"name":"label","defaultValue":null,"type":{"kind":"SCALAR","ofType":null}}]}`,
		`{"name":"stream","locations":["FIELD"],"args":[{"name":"if","defaultValue":"true","type":{"kind":"NON_NULL","ofType":{"name":"Boolean"}}},{"name":"label","defaultValue":null,"type":{"kind":"SCALAR","ofType":null}},{"name":"initialCount","defaultValue":"0","type":{"kind":"NON_NULL","ofType":{"name":"Int"}}}]}`,
	} {
		if !strings.Contains(string(body), w) {
			t.Errorf("introspection lacks %s:\n%s", w, body)
		}
	}
}

func TestIncrementalHooksSeeEachPayload(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	hook := graft.HookFuncs{AfterFunc: func(_ context.Context, ev *graft.HookEvent) {
		if ev.Phase == graft.PhasePayload || ev.Phase == graft.PhaseAnswered {
			mu.Lock()
			seen = append(seen, fmt.Sprintf("%s %d %d", ev.Phase, ev.Payload, ev.ErrorCount))
			mu.Unlock()
		}
	}}
	srv := incServer(t, graft.Config{Hooks: []graft.Hook{hook}})
	q := `{"query":"{ item(id: \"1\") { id ... @defer { failing } } }"}`
	for _, accept := range []string{"multipart/mixed;incrementalSpec=v0.2", "text/event-stream"} {
		mu.Lock()
		seen = nil
		mu.Unlock()
		resp := streamPost(t, srv, accept, q)
		_, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		deadline := time.Now().Add(10 * time.Second)
		for {
			mu.Lock()
			got := strings.Join(seen, "; ")
			mu.Unlock()
			if got == "payload 1 1; answered 0 1" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: hooks saw %q", accept, got)
			}
			runtime.Gosched()
		}
	}
}

func TestIncrementalResponseBudgetCoversTheStream(t *testing.T) {
	srv := incServer(t, graft.Config{MaxResponseBytes: 300})
	q := `{"query":"{ items(count: 20) @stream(initialCount: 1) { id name } }"}`
	resp := streamPost(t, srv, "multipart/mixed;incrementalSpec=v0.2", q)
	body, _ := io.ReadAll(resp.Body)
	ps := parts(t, string(body))
	all := strings.Join(ps, "\n")
	if !strings.Contains(all, `"code":"RESPONSE_TOO_LARGE"`) || strings.Contains(all, `"Item 20"`) || !strings.HasSuffix(all, `"hasNext":false}`) {
		t.Fatalf("payloads:\n%s", all)
	}
}

func TestIncrementalSafelistDocumentID(t *testing.T) {
	query := `query Deferred { fastField item(id: "1") { id ... @defer(label: "D") { slowField } } }`
	h := persisted.Hash(persisted.SHA256, query)
	path := filepath.Join(t.TempDir(), "persisted-documents.json")
	qj, _ := json.Marshal(query)
	if err := os.WriteFile(path, []byte(`{"`+h+`":`+string(qj)+`}`), 0o600); err != nil {
		t.Fatal(err)
	}
	entries, err := persisted.LoadManifest(path)
	if err != nil {
		t.Fatal(err)
	}
	store, err := persisted.NewSafelistStore(entries)
	if err != nil {
		t.Fatal(err)
	}
	srv := incServer(t, graft.Config{PersistedQueries: &persisted.Options{Mode: persisted.Safelist, Store: store}})
	resp := streamPost(t, srv, "multipart/mixed;deferSpec=20220824", `{"documentId":"sha256:`+h+`"}`)
	body, _ := io.ReadAll(resp.Body)
	ps := parts(t, string(body))
	if len(ps) != 2 || ps[1] != `{"incremental":[{"data":{"slowField":"slow 1"},"path":["item"],"label":"D"}],"hasNext":false}` {
		t.Fatalf("payloads %q", ps)
	}
	// A document outside the safelist is refused, deferred or not.
	resp = streamPost(t, srv, "multipart/mixed;deferSpec=20220824", `{"query":"{ fastField ... @defer { slowField } }"}`)
	body, _ = io.ReadAll(resp.Body)
	if resp.StatusCode != 403 || !strings.Contains(string(body), "PERSISTED_QUERY_NOT_ALLOWED") {
		t.Fatalf("status %d body %s", resp.StatusCode, body)
	}
}

func TestIncrementalOverGET(t *testing.T) {
	srv := incServer(t, graft.Config{})
	q := url.Values{"query": {`{ item(id: "1") { id ... @defer { name } } }`}}
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/graphql?"+q.Encode(), nil)
	req.Header.Set("Accept", "multipart/mixed;incrementalSpec=v0.2")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	ps := parts(t, string(body))
	if resp.Header.Get("Cache-Control") != "no-store" || len(ps) != 2 || ps[1] != `{"incremental":[{"data":{"name":"Item 1"},"id":"0"}],"completed":[{"id":"0"}],"hasNext":false}` {
		t.Fatalf("Cache-Control %q, payloads %q", resp.Header.Get("Cache-Control"), ps)
	}
}
