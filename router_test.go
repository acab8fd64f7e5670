package graft_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/graphiql"
)

func TestResolverErrorHasPath(t *testing.T) {
	r := newTestRouter(t, graft.Config{})
	got := post(t, r, "{ hello fail }")
	if got.body.Data["fail"] != nil || got.body.Data["hello"] != "world" {
		t.Fatalf("data = %v", got.body.Data)
	}
	path, _ := got.body.Errors[0]["path"].([]any)
	if len(path) != 1 || path[0] != "fail" || got.body.Errors[0]["message"] != "not allowed" {
		t.Fatalf("error = %v", got.body.Errors[0])
	}
}

func TestMediaTypes(t *testing.T) {
	r := newTestRouter(t, graft.Config{})
	tests := []struct{ accept, want string }{
		{"", "application/json; charset=utf-8"},
		{"*/*", "application/json; charset=utf-8"},
		{"application/graphql-response+json", "application/graphql-response+json; charset=utf-8"},
		{"application/json", "application/json; charset=utf-8"},
		// The client's order decides between types of equal quality.
		{"application/json, application/graphql-response+json", "application/json; charset=utf-8"},
		{"application/graphql-response+json, application/json", "application/graphql-response+json; charset=utf-8"},
		{"application/json;q=0.5, application/graphql-response+json", "application/graphql-response+json; charset=utf-8"},
	}
	for _, tc := range tests {
		got := post(t, r, "{ hello }", "Accept", tc.accept)
		if got.header.Get("Content-Type") != tc.want || got.status != 200 {
			t.Errorf("Accept %q: %d %q, want %q", tc.accept, got.status, got.header.Get("Content-Type"), tc.want)
		}
		bad := post(t, r, "{ nope }", "Accept", tc.accept)
		if bad.header.Get("Content-Type") != tc.want || bad.status != 400 {
			t.Errorf("Accept %q, validation error: %d %q", tc.accept, bad.status, bad.header.Get("Content-Type"))
		}
	}
}

func TestStatusCodePolicies(t *testing.T) {
	const gql = "application/graphql-response+json"
	tests := []struct {
		policy        graft.StatusCodes
		query, accept string
		want          int
	}{
		{graft.StatusCodesLegacy, "{ hello ", "application/json", 200},
		{graft.StatusCodesLegacy, "{ nope }", "application/json", 200},
		{graft.StatusCodesLegacy, "{ hello ", gql, 400},
		{graft.StatusCodesLegacy, "{ nope }", gql, 400},
		{graft.StatusCodesSpec, "{ hello ", "application/json", 200},
		{graft.StatusCodesSpec, "{ nope }", "application/json", 200},
		{graft.StatusCodesSpec, "{ hello ", gql, 400},
		{graft.StatusCodesSpec, "{ nope }", gql, 422},
		{graft.StatusCodesApollo, "{ hello ", "application/json", 400},
		{graft.StatusCodesApollo, "{ nope }", gql, 400},
	}
	for _, tc := range tests {
		r := newTestRouter(t, graft.Config{StatusCodes: tc.policy})
		if got := post(t, r, tc.query, "Accept", tc.accept); got.status != tc.want || len(got.body.Errors) == 0 {
			t.Errorf("%s: %q with %s: %d %s, want %d", tc.policy, tc.query, tc.accept, got.status, got.raw, tc.want)
		}
	}
	if _, err := graft.NewRouter(testSchema(t), nil, graft.Config{StatusCodes: "strict"}); err == nil {
		t.Error("an unknown policy must be refused")
	}
}

func TestBodyLimit(t *testing.T) {
	r := newTestRouter(t, graft.Config{MaxBodyBytes: 64})
	small := `{"query":"{ hello }"}`
	if got := send(t, r, "POST", "/graphql", small); got.status != 200 {
		t.Fatalf("small body: %d %s", got.status, got.raw)
	}
	big := `{"query":"{ hello }","variables":{"pad":"` + strings.Repeat("x", 100) + `"}}`
	got := send(t, r, "POST", "/graphql", big)
	if got.status != 413 || got.code(0) != "PAYLOAD_TOO_LARGE" {
		t.Fatalf("big body: %d %s", got.status, got.raw)
	}
	// Exactly at the limit passes.
	at := `{"query":"{ hello }","variables":{"p":"` + strings.Repeat("x", 64-len(`{"query":"{ hello }","variables":{"p":""}}`)) + `"}}`
	if len(at) != 64 {
		t.Fatalf("test body is %d bytes", len(at))
	}
	if got := send(t, r, "POST", "/graphql", at); got.status != 200 {
		t.Fatalf("body at the limit: %d %s", got.status, got.raw)
	}
}

func TestMaxTokens(t *testing.T) {
	r := newTestRouter(t, graft.Config{MaxTokens: 10})
	if got := post(t, r, "{ hello }"); got.status != 200 {
		t.Fatalf("short query: %d %s", got.status, got.raw)
	}
	got := post(t, r, "{ hello hello hello hello hello hello hello hello hello hello hello }")
	if got.status != 400 || got.code(0) != "GRAPHQL_PARSE_FAILED" {
		t.Fatalf("long query: %d %s", got.status, got.raw)
	}
}

func TestDisableIntrospection(t *testing.T) {
	r := newTestRouter(t, graft.Config{DisableIntrospection: true})
	got := post(t, r, "{ __schema { queryType { name } } }")
	if got.status != 400 || got.code(0) != "GRAPHQL_VALIDATION_FAILED" {
		t.Fatalf("got %d %s", got.status, got.raw)
	}
	if got := post(t, r, "{ __typename }"); got.status != 200 {
		t.Fatalf("__typename must stay available: %d %s", got.status, got.raw)
	}
	open := newTestRouter(t, graft.Config{})
	if got := post(t, open, "{ __schema { queryType { name } } }"); got.status != 200 || !strings.Contains(got.raw, `"Query"`) {
		t.Fatalf("introspection on: %d %s", got.status, got.raw)
	}
}

func TestServicesAndRequestInfo(t *testing.T) {
	r := newTestRouter(t, graft.Config{})
	got := post(t, r, "{ greeting authorization }", "Authorization", "Bearer abc")
	if got.status != 200 || got.body.Data["greeting"] != "hi" || got.body.Data["authorization"] != "Bearer abc" {
		t.Fatalf("got %d %s", got.status, got.raw)
	}
	got = post(t, r, "{ missing }")
	if got.status != 200 || len(got.body.Errors) != 1 || !strings.Contains(got.body.Errors[0]["message"].(string), "graft_test.unprovided") {
		t.Fatalf("missing service: %s", got.raw)
	}
}

func TestMaskErrors(t *testing.T) {
	masked := newTestRouter(t, graft.Config{MaskErrors: true})
	got := post(t, masked, "{ plainError fail }")
	if strings.Contains(got.raw, "hunter2") {
		t.Fatalf("masked router leaked the message: %s", got.raw)
	}
	if !strings.Contains(got.raw, "not allowed") {
		t.Fatalf("a *gqlerror.Error must keep its message: %s", got.raw)
	}
	open := newTestRouter(t, graft.Config{})
	if got := post(t, open, "{ plainError }"); !strings.Contains(got.raw, "hunter2") {
		t.Fatalf("unmasked router: %s", got.raw)
	}
}

func TestTimeout(t *testing.T) {
	r := newTestRouter(t, graft.Config{Timeout: 1})
	got := post(t, r, "{ slow }")
	if got.status != 200 || len(got.body.Errors) != 1 || got.body.Data["slow"] != nil {
		t.Fatalf("got %d %s", got.status, got.raw)
	}
}

func TestAuthHook(t *testing.T) {
	r := newTestRouter(t, graft.Config{Auth: func(ctx context.Context, req *graft.AuthRequest) (context.Context, error) {
		tok := req.Header("Authorization")
		if tok == "" {
			return ctx, nil
		}
		if tok != "Bearer good" {
			return nil, errors.New("invalid token")
		}
		return context.WithValue(ctx, userKey{}, "ada"), nil
	}})
	if got := post(t, r, "{ user }"); got.status != 200 || got.body.Data["user"] != nil {
		t.Fatalf("anonymous: %d %s", got.status, got.raw)
	}
	if got := post(t, r, "{ user }", "Authorization", "Bearer good"); got.body.Data["user"] != "ada" {
		t.Fatalf("authenticated: %s", got.raw)
	}
	got := post(t, r, "{ user }", "Authorization", "Bearer bad")
	if got.status != 401 || got.code(0) != "UNAUTHENTICATED" || got.body.Errors[0]["message"] != "invalid token" {
		t.Fatalf("rejected: %d %s", got.status, got.raw)
	}
}

func TestCSRF(t *testing.T) {
	r := newTestRouter(t, graft.Config{CSRF: &graft.CSRFConfig{}})
	get := "/graphql?query=" + url.QueryEscape("{ hello }")
	tests := []struct {
		name       string
		method     string
		target     string
		headers    []string
		wantStatus int
	}{
		{"GET without preflight header", "GET", get, nil, 400},
		{"GET with client-require-preflight", "GET", get, []string{"client-require-preflight", "1"}, 200},
		{"GET with apollo-require-preflight", "GET", get, []string{"Apollo-Require-Preflight", "true"}, 200},
		{"GET with an empty header", "GET", get, []string{"client-require-preflight", ""}, 400},
		{"POST JSON", "POST", "/graphql", nil, 200},
		{"POST text/plain", "POST", "/graphql", []string{"Content-Type", "text/plain"}, 400},
		{"POST form", "POST", "/graphql", []string{"Content-Type", "application/x-www-form-urlencoded"}, 400},
		{"POST text/plain with preflight header", "POST", "/graphql", []string{"Content-Type", "text/plain", "client-require-preflight", "1"}, 415},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := ""
			if tc.method == "POST" {
				body = `{"query":"{ hello }"}`
			}
			got := send(t, r, tc.method, tc.target, body, tc.headers...)
			if got.status != tc.wantStatus {
				t.Fatalf("status %d, want %d: %s", got.status, tc.wantStatus, got.raw)
			}
			if tc.wantStatus == 400 && (got.code(0) != "CSRF_PREVENTION_BLOCKED" || !strings.Contains(got.raw, "client-require-preflight")) {
				t.Fatalf("body %s", got.raw)
			}
		})
	}
	custom := newTestRouter(t, graft.Config{CSRF: &graft.CSRFConfig{RequiredHeaders: []string{"X-Requested-With"}}})
	if got := send(t, custom, "GET", get, "", "X-Requested-With", "fetch"); got.status != 200 {
		t.Fatalf("custom header: %d %s", got.status, got.raw)
	}
	if got := send(t, custom, "GET", get, "", "client-require-preflight", "1"); got.status != 400 {
		t.Fatalf("only the configured header counts: %d", got.status)
	}
}

func TestComposesWithOtherRoutes(t *testing.T) {
	r := newTestRouter(t, graft.Config{})
	mux := http.NewServeMux()
	mux.HandleFunc("/health", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) })
	mux.Handle("/graphql", r)
	mux.Handle("/api/", http.StripPrefix("/api", r))
	mux.Handle("/static/", http.FileServer(http.Dir(".")))
	if got := send(t, mux, "GET", "/health", ""); got.status != 200 || got.raw != "ok" {
		t.Fatalf("health: %d %q", got.status, got.raw)
	}
	if got := post(t, mux, "{ hello }"); got.status != 200 {
		t.Fatalf("graphql: %d", got.status)
	}
	if got := send(t, mux, "POST", "/api/graphql", `{"query":"{ hello }"}`); got.status != 200 || got.body.Data["hello"] != "world" {
		t.Fatalf("under a prefix: %d %s", got.status, got.raw)
	}
}

func TestCustomPath(t *testing.T) {
	r := newTestRouter(t, graft.Config{Path: "/api/gql"})
	if got := send(t, r, "POST", "/api/gql", `{"query":"{ hello }"}`); got.status != 200 {
		t.Fatalf("custom path: %d", got.status)
	}
	if got := send(t, r, "POST", "/graphql", `{"query":"{ hello }"}`); got.status != 404 {
		t.Fatalf("default path must not answer: %d", got.status)
	}
}

func TestGraphiQL(t *testing.T) {
	off := newTestRouter(t, graft.Config{})
	if got := send(t, off, "GET", "/graphiql", ""); got.status != 404 {
		t.Fatalf("GraphiQL off: %d", got.status)
	}
	on := newTestRouter(t, graft.Config{GraphiQL: &graft.GraphiQLConfig{}})
	got := send(t, on, "GET", "/graphiql", "")
	if got.status != 200 || got.header.Get("Content-Type") != "text/html; charset=utf-8" || !strings.Contains(got.raw, "/graphql") {
		t.Fatalf("GraphiQL on: %d %q", got.status, got.header.Get("Content-Type"))
	}
	evil := `/g"</script><script>alert(1)</script>`
	custom := newTestRouter(t, graft.Config{GraphiQL: &graft.GraphiQLConfig{Path: "/ide", Endpoint: evil}})
	got = send(t, custom, "GET", "/ide", "")
	if got.status != 200 || strings.Contains(got.raw, "</script><script>alert(1)") {
		t.Fatalf("endpoint not escaped: %d", got.status)
	}
	if got := send(t, custom, "POST", "/ide", "{}"); got.status != 405 {
		t.Fatalf("POST to GraphiQL: %d", got.status)
	}
}

func TestLayerStartsOnFirstRequest(t *testing.T) {
	l := graft.NewLayer()
	built := 0
	graft.Provide(l, func(ctx context.Context) (*greeter, func(context.Context) error, error) {
		built++
		return &greeter{greeting: "lazy"}, nil, nil
	})
	r, err := graft.NewRouter(testSchema(t), l, graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if built != 0 {
		t.Fatal("built before the first request")
	}
	for range 3 {
		if got := post(t, r, "{ greeting }"); got.body.Data["greeting"] != "lazy" {
			t.Fatalf("got %s", got.raw)
		}
	}
	if built != 1 {
		t.Fatalf("built %d times", built)
	}
}

func TestExecuteWithoutHTTP(t *testing.T) {
	r := newTestRouter(t, graft.Config{})
	status, got := r.Execute(context.Background(), graft.Request{Query: `query($t: String!) { echo(text: $t) }`, Variables: map[string]any{"t": "hi"}})
	if status != 200 || string(got) != `{"data":{"echo":"hi"}}` {
		t.Fatalf("got %d %s", status, got)
	}
	status, body := r.Execute(context.Background(), graft.Request{Query: "{ nope }"})
	if status != 400 || !strings.Contains(string(body), "GRAPHQL_VALIDATION_FAILED") {
		t.Fatalf("got %d %s", status, body)
	}
}

func TestNewRouterRejectsBadConfig(t *testing.T) {
	s := testSchema(t)
	for _, cfg := range []graft.Config{
		{Path: "graphql"},
		{MaxBodyBytes: -1},
		{GraphiQL: &graft.GraphiQLConfig{Path: "ide"}},
	} {
		if _, err := graft.NewRouter(s, nil, cfg); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
	if _, err := graft.NewRouter(nil, nil, graft.Config{}); err == nil {
		t.Error("nil schema accepted")
	}
}

func TestMaxResponseBytes(t *testing.T) {
	bs, err := blog.Schema()
	r := routerFor(t, bs, err, graft.Config{MaxResponseBytes: 2000})
	got := post(t, r, `{ authors(first: 100) { id name email } }`)
	if got.status != 200 || len(got.raw) > 4000 {
		t.Fatalf("got %d, %d bytes", got.status, len(got.raw))
	}
	var found bool
	for i := range got.body.Errors {
		if got.code(i) == "RESPONSE_TOO_LARGE" {
			found = true
		}
	}
	if !found {
		t.Fatalf("no RESPONSE_TOO_LARGE error: %s", got.raw)
	}
	if got := post(t, r, `{ hello }`); got.status != 200 || got.body.Data["hello"] != "world" {
		t.Fatalf("a small response: %s", got.raw)
	}
}

// TestGraphiQLPageHeaders: the router serves the GraphiQL page with the
// headers package graphiql builds for it.
func TestGraphiQLPageHeaders(t *testing.T) {
	r := newTestRouter(t, graft.Config{GraphiQL: &graft.GraphiQLConfig{FrameAncestors: "'self'", Assets: graft.GraphiQLAssetsCDN}})
	got := send(t, r, "GET", "/graphiql", "")
	want, err := graphiql.NewPage(graphiql.Options{Endpoint: "/graphql", Title: "GraphiQL", FrameAncestors: "'self'"})
	if err != nil {
		t.Fatal(err)
	}
	if got.status != 200 || got.raw != string(want.Body) {
		t.Fatalf("page: %d", got.status)
	}
	for _, k := range []string{"Content-Type", "X-Content-Type-Options", "Cache-Control", "Content-Security-Policy"} {
		if g, w := got.header.Values(k), want.Header.Values(k); len(g) != 1 || g[0] != w[0] {
			t.Errorf("%s = %q, want %q", k, g, w)
		}
	}
	if csp := got.header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'self'") {
		t.Errorf("Content-Security-Policy = %q", csp)
	}
}
