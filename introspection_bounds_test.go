package graft_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/starwars"
	"github.com/graftgql/graft/limits"
)

// fanOut reads a document of the introspection fan-out family: 30 aliased
// types by 30 aliased fields (two levels), by 30 aliased names (three).
func fanOut(t testing.TB, levels int) string {
	t.Helper()
	b, err := os.ReadFile("limits/testdata/introspection_fanout" + strconv.Itoa(levels) + ".graphql")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// postServer posts query to the server at url and returns the status,
// the number of body bytes written and the body decoded (when it is
// under 1 MiB).
func postServer(t testing.TB, url, query string) (int, int64, *reply) {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"query": query})
	resp, err := http.Post(url+"/graphql", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var head bytes.Buffer
	n, err := io.Copy(&limitedWriter{w: &head, left: 1 << 20}, resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	r := &reply{status: resp.StatusCode, header: resp.Header, raw: head.String()}
	if n <= 1<<20 {
		if err := json.Unmarshal(head.Bytes(), &r.body); err != nil {
			t.Fatalf("response is not JSON: %v: %.300s", err, r.raw)
		}
	}
	return resp.StatusCode, n, r
}

// limitedWriter keeps the first left bytes written to it and counts the
// rest.
type limitedWriter struct {
	w    io.Writer
	left int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.left > 0 {
		k := min(len(p), l.left)
		l.w.Write(p[:k])
		l.left -= k
	}
	return len(p), nil
}

// TestIntrospectionFanOutRefused: aliases inside __schema count toward
// MaxAliases (each expansion of a fragment counted), and the fan-out
// family exceeds the default introspection field budget when no alias
// limit is set.
func TestIntrospectionFanOutRefused(t *testing.T) {
	for _, tt := range []struct {
		levels  int
		aliases float64
		fields  float64
	}{
		{levels: 2, aliases: 30 + 30*30, fields: 1 + 30 + 2*30*30},
		{levels: 3, aliases: 30 + 30*30 + 30*30*30, fields: 1 + 30 + 30*30 + 30*30*30},
	} {
		t.Run(strconv.Itoa(tt.levels)+" levels", func(t *testing.T) {
			for _, c := range []struct {
				cfg       limits.Config
				limitType string
				actual    float64
			}{
				{cfg: limits.Config{MaxAliases: 10}, limitType: limits.LimitAliases, actual: tt.aliases},
				{cfg: limits.Config{}, limitType: limits.LimitIntrospectionFields, actual: tt.fields},
			} {
				srv := httptest.NewServer(newTestRouter(t, graft.Config{Complexity: c.cfg}))
				status, n, got := postServer(t, srv.URL, fanOut(t, tt.levels))
				srv.Close()
				if status != http.StatusBadRequest || got.code(0) != graft.CodeComplexityLimit || n > 1<<10 {
					t.Fatalf("%+v: got %d, %d bytes: %s", c.cfg, status, n, got.raw)
				}
				ext := got.body.Errors[0]["extensions"].(map[string]any)
				if ext["limitType"] != c.limitType || ext["actual"] != c.actual {
					t.Fatalf("%+v: extensions %v, want limitType %s actual %v", c.cfg, ext, c.limitType, c.actual)
				}
			}
		})
	}
}

// TestIntrospectionFanOutResponseBudget: with no limit on aliases or
// introspection fields, MaxResponseBytes stops the introspection writer
// as it stops ordinary fields.
func TestIntrospectionFanOutResponseBudget(t *testing.T) {
	const budget = 256 << 10
	srv := httptest.NewServer(newTestRouter(t, graft.Config{
		MaxResponseBytes: budget,
		Complexity:       limits.Config{MaxIntrospectionFields: -1},
	}))
	defer srv.Close()
	for _, levels := range []int{2, 3} {
		status, n, got := postServer(t, srv.URL, fanOut(t, levels))
		if status != http.StatusOK || n > budget+(8<<10) || got.code(0) != "RESPONSE_TOO_LARGE" || len(got.body.Errors) != 1 || got.body.Data != nil {
			t.Fatalf("%d levels: got %d, %d bytes: %.300s", levels, status, n, got.raw)
		}
	}
	// The router still answers, and a second fan-out is written afresh
	// under the budget rather than served from a cache.
	if got := post(t, srv.Config.Handler, "{ hello }"); got.status != 200 || got.body.Data["hello"] != "world" {
		t.Fatalf("{ hello }: %d %s", got.status, got.raw)
	}
	if status, n, _ := postServer(t, srv.URL, fanOut(t, 2)); status != http.StatusOK || n > budget+(8<<10) {
		t.Fatalf("second fan-out: %d, %d bytes", status, n)
	}
}

// TestIntrospectionCancelledOverHTTP: introspection stops when the
// request's context is done, and the cut answer is not cached.
func TestIntrospectionCancelledOverHTTP(t *testing.T) {
	r := newTestRouter(t, graft.Config{})
	const q = `{"query":"{ __schema { types { name } } }"}`
	// Start the services first: a request cancelled while they start is
	// answered before execution (TestCancelledWhileStarting).
	if got := send(t, r, http.MethodPost, "/graphql", `{"query":"{ hello }"}`); got.status != 200 {
		t.Fatalf("warm-up: %d %s", got.status, got.raw)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(q)).WithContext(ctx)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, req)
	if !strings.Contains(rec.Body.String(), `"code":"REQUEST_CANCELLED"`) || !strings.Contains(rec.Body.String(), `"data":null`) {
		t.Fatalf("cancelled: %d %s", rec.Code, rec.Body)
	}
	got := send(t, r, http.MethodPost, "/graphql", q)
	if got.status != 200 || len(got.body.Errors) != 0 || got.body.Data["__schema"] == nil {
		t.Fatalf("after the cancelled request: %d %.300s", got.status, got.raw)
	}
}

// TestIntrospectionFanOutMemory sends the fan-out family with no limit but
// the default response budget: each request allocates a bounded amount,
// nothing of it stays on the heap, and the router keeps answering.
func TestIntrospectionFanOutMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("memory test")
	}
	r := newTestRouter(t, graft.Config{Complexity: limits.Config{MaxIntrospectionFields: -1}})
	srv := httptest.NewServer(r)
	defer srv.Close()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	const requests = 4
	for i := range requests {
		// Distinct documents, so neither the document cache nor the
		// introspection cache can answer.
		q := fanOut(t, 2+i%2) + "\n# variant " + strconv.Itoa(i)
		status, n, _ := postServer(t, srv.URL, q)
		if status != http.StatusOK || n > graft.DefaultMaxResponseBytes+(64<<10) {
			t.Fatalf("request %d: %d, %d bytes", i, status, n)
		}
	}
	// One more request on the same keep-alive connection: the handler of
	// the last large answer has returned before it is read, so the
	// measurement below does not catch that answer still being written.
	if status, _, got := postServer(t, srv.URL, "{ hello }"); status != 200 || got.body.Data["hello"] != "world" {
		t.Fatalf("{ hello }: %d %s", status, got.raw)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	perRequest := (after.TotalAlloc - before.TotalAlloc) / requests
	// The answer is built in one buffer that grows by doubling to the
	// 16 MiB budget (about 32 MiB allocated), then written out.
	t.Logf("%d MiB allocated per request; heap %d MiB before, %d MiB after", perRequest>>20, before.HeapAlloc>>20, after.HeapAlloc>>20)
	if perRequest > 96<<20 {
		t.Errorf("%d MiB allocated per request, want at most 96", perRequest>>20)
	}
	if after.HeapAlloc > before.HeapAlloc+(32<<20) {
		t.Errorf("heap grew from %d MiB to %d MiB and stayed", before.HeapAlloc>>20, after.HeapAlloc>>20)
	}
	if status, _, got := postServer(t, srv.URL, "{ hello }"); status != 200 || got.body.Data["hello"] != "world" {
		t.Fatalf("{ hello }: %d %s", status, got.raw)
	}
}

// TestAliasedTypenameOverHTTP: 400 aliases of __typename inside a list
// count as 400 aliases against MaxAliases 10.
func TestAliasedTypenameOverHTTP(t *testing.T) {
	s, err := starwars.Schema()
	r := routerFor(t, s, err, graft.Config{Complexity: limits.Config{MaxAliases: 10}})
	var q strings.Builder
	q.WriteString("{ hero { friends { friends {")
	for i := range 400 {
		q.WriteString(" t" + strconv.Itoa(i) + ": __typename")
	}
	q.WriteString(" } } } }")
	got := post(t, r, q.String())
	if got.status != http.StatusBadRequest || got.code(0) != graft.CodeComplexityLimit || len(got.raw) > 1<<10 {
		t.Fatalf("got %d %s", got.status, got.raw)
	}
	if ext := got.body.Errors[0]["extensions"].(map[string]any); ext["limitType"] != limits.LimitAliases || ext["actual"] != float64(400) {
		t.Fatalf("extensions %v", ext)
	}
	if got := post(t, r, "{ hero { __typename friends { __typename name } } }"); got.status != 200 {
		t.Fatalf("plain __typename: %d %s", got.status, got.raw)
	}
}

// TestStandardIntrospectionUnderStrictLimits: the introspection query
// GraphiQL sends (graphql-js's getIntrospectionQuery with every option)
// passes limits of one for every ordinary measure.
func TestStandardIntrospectionUnderStrictLimits(t *testing.T) {
	q, err := os.ReadFile("limits/testdata/introspection_full.graphql")
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRouter(t, graft.Config{Complexity: limits.Config{MaxDepth: 1, MaxComplexity: 1, MaxFields: 1, MaxAliases: 1, MaxDirectives: 1}})
	got := post(t, r, string(q))
	if got.status != 200 || len(got.body.Errors) != 0 || got.body.Data["__schema"] == nil {
		t.Fatalf("got %d %.300s", got.status, got.raw)
	}
}

// TestSyntaxErrorsOverHTTP: syntax errors as graphql-js words them, and a
// lone surrogate escape refused.
func TestSyntaxErrorsOverHTTP(t *testing.T) {
	r := newTestRouter(t, graft.Config{})
	for _, tt := range []struct{ query, message string }{
		{`{ hello`, `Syntax Error: Expected Name, found <EOF>.`},
		{`{ echo(text: "\uD800") }`, `Syntax Error: Invalid Unicode escape sequence: "\uD800".`},
		{`   `, `Syntax Error: Unexpected <EOF>.`},
	} {
		got := post(t, r, tt.query)
		if got.status != 400 || got.code(0) != "GRAPHQL_PARSE_FAILED" || got.body.Errors[0]["message"] != tt.message {
			t.Errorf("%s: got %d %s", tt.query, got.status, got.raw)
		}
	}
	if got := post(t, r, `{ echo(text: "\uD83D\uDE00") }`); got.status != 200 || got.body.Data["echo"] != "😀" {
		t.Errorf("surrogate pair: got %d %s", got.status, got.raw)
	}
}
