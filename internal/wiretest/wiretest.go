// Package wiretest holds the black-box HTTP cases every graft transport
// must pass (net/http, fasthttp, AWS Lambda, the web handler), with the
// schema and router configuration they assume. Each transport's test turns
// a Case into a request on its own wire and hands the answer to Check, so
// all hosts are held to the same behaviour.
package wiretest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/schema"
)

// MaxBodyBytes is the body limit of the router the cases assume.
const MaxBodyBytes = 1024

// UserHeader is the request header the whoami field echoes, to show that
// adapters pass headers through.
const UserHeader = "X-User"

// Case is one request and the answer expected of every transport.
type Case struct {
	Name    string
	Method  string
	Path    string // with the query string, if any
	Header  map[string]string
	Body    string
	Want    int    // status
	Code    string // extensions.code of the first error; "" for none
	InBody  string // substring of the body; "" for no check
	Allow   string // Allow header; "" for no check
	Content string // Content-Type prefix; "" for no check
	// Protected cases run against ProtectedRouter (CSRF protection and
	// the auth hook on), the others against Router.
	Protected bool
}

// Result is a transport's answer to a Case.
type Result struct {
	Status int
	Header http.Header
	Body   []byte
}

// Schema returns the schema the cases query: hello (returns "world"),
// whoami (returns the X-User header), me (the user the auth hook put in
// the context) and the mutation ping (returns "pong").
func Schema(t testing.TB) *schema.Schema {
	t.Helper()
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(context.Context) (string, error) { return "world", nil })
	schema.QueryNoArgs(b, "whoami", func(ctx context.Context) (string, error) {
		if info := graft.RequestInfoFrom(ctx); info != nil && info.Header != nil {
			return info.Header(UserHeader), nil
		}
		return "", nil
	})
	schema.QueryNoArgs(b, "me", func(ctx context.Context) (string, error) {
		user, _ := ctx.Value(userKey{}).(string)
		return user, nil
	})
	schema.MutationNoArgs(b, "ping", func(context.Context) (string, error) { return "pong", nil })
	s, err := b.Build()
	if err != nil {
		t.Fatalf("wiretest: build schema: %v", err)
	}
	return s
}

// Router returns a router over Schema with the configuration the cases
// assume: GraphQL at /graphql, GraphiQL at /graphiql, MaxBodyBytes.
func Router(t testing.TB) *graft.Router {
	t.Helper()
	r, err := graft.NewRouter(Schema(t), graft.NewLayer(), graft.Config{
		MaxBodyBytes: MaxBodyBytes,
		GraphiQL:     &graft.GraphiQLConfig{},
	})
	if err != nil {
		t.Fatalf("wiretest: NewRouter: %v", err)
	}
	return r
}

// ProtectedRouter is Router with CSRF protection and an auth hook: a
// request with "Authorization: Bearer <name>" runs as user <name>, one
// with any other Authorization value is refused with 401, one without
// runs anonymously.
func ProtectedRouter(t testing.TB) *graft.Router {
	t.Helper()
	r, err := graft.NewRouter(Schema(t), graft.NewLayer(), graft.Config{
		MaxBodyBytes: MaxBodyBytes,
		CSRF:         &graft.CSRFConfig{},
		Auth: func(ctx context.Context, r *graft.AuthRequest) (context.Context, error) {
			auth := r.Header("Authorization")
			if auth == "" {
				return ctx, nil
			}
			user, ok := strings.CutPrefix(auth, "Bearer ")
			if !ok || user == "" {
				return nil, errors.New("invalid credentials")
			}
			return context.WithValue(ctx, userKey{}, user), nil
		},
	})
	if err != nil {
		t.Fatalf("wiretest: NewRouter: %v", err)
	}
	return r
}

type userKey struct{}

const jsonCT = "application/json"

var post = map[string]string{"Content-Type": jsonCT}

// Cases returns the shared black-box cases.
func Cases() []Case {
	return []Case{
		{Name: "POST query", Method: "POST", Path: "/graphql", Header: post,
			Body: `{"query":"{ hello }"}`, Want: 200, InBody: `"hello":"world"`},
		{Name: "application/json when asked for", Method: "POST", Path: "/graphql",
			Header: map[string]string{"Content-Type": jsonCT, "Accept": jsonCT},
			Body:   `{"query":"{ hello }"}`, Want: 200, Content: "application/json"},
		{Name: "GET query", Method: "GET", Path: "/graphql?query=%7B%20hello%20%7D",
			Want: 200, InBody: `"hello":"world"`},
		{Name: "POST with charset and operation name", Method: "POST", Path: "/graphql",
			Header: map[string]string{"Content-Type": "application/json; charset=utf-8"},
			Body:   `{"query":"query A { hello } query B { whoami }","operationName":"A"}`, Want: 200, InBody: `"hello":"world"`},
		{Name: "request header reaches resolvers", Method: "POST", Path: "/graphql",
			Header: map[string]string{"Content-Type": jsonCT, UserHeader: "ada"},
			Body:   `{"query":"{ whoami }"}`, Want: 200, InBody: `"whoami":"ada"`},
		{Name: "graphql-response+json when accepted", Method: "POST", Path: "/graphql",
			Header: map[string]string{"Content-Type": jsonCT, "Accept": "application/graphql-response+json"},
			Body:   `{"query":"{ hello }"}`, Want: 200, Content: "application/graphql-response+json"},
		{Name: "mutation over POST", Method: "POST", Path: "/graphql", Header: post,
			Body: `{"query":"mutation { ping }"}`, Want: 200, InBody: `"ping":"pong"`},
		{Name: "mutation over GET is refused", Method: "GET", Path: "/graphql?query=mutation%20%7B%20ping%20%7D",
			Want: 405, Allow: "POST"},
		{Name: "other method is refused", Method: "PUT", Path: "/graphql", Header: post,
			Body: `{"query":"{ hello }"}`, Want: 405, Allow: "GET, POST"},
		{Name: "unsupported content type", Method: "POST", Path: "/graphql",
			Header: map[string]string{"Content-Type": "application/xml"}, Body: `<query/>`, Want: 415},
		{Name: "body is not JSON", Method: "POST", Path: "/graphql", Header: post,
			Body: `{"query":`, Want: 400, Code: "BAD_REQUEST"},
		{Name: "no query", Method: "POST", Path: "/graphql", Header: post,
			Body: `{}`, Want: 400, Code: "BAD_REQUEST"},
		{Name: "syntax error", Method: "POST", Path: "/graphql", Header: post,
			Body: `{"query":"{ hello"}`, Want: 400, Code: "GRAPHQL_PARSE_FAILED"},
		{Name: "validation error", Method: "POST", Path: "/graphql", Header: post,
			Body: `{"query":"{ nope }"}`, Want: 400, Code: "GRAPHQL_VALIDATION_FAILED"},
		{Name: "body over the limit", Method: "POST", Path: "/graphql", Header: post,
			Body: `{"query":"{ hello }","pad":"` + strings.Repeat("x", MaxBodyBytes) + `"}`,
			Want: 413, Code: "PAYLOAD_TOO_LARGE"},
		{Name: "nothing acceptable", Method: "POST", Path: "/graphql",
			Header: map[string]string{"Content-Type": jsonCT, "Accept": "image/png"},
			Body:   `{"query":"{ hello }"}`, Want: 406},
		{Name: "GraphiQL page", Method: "GET", Path: "/graphiql",
			Header: map[string]string{"Accept": "text/html"}, Want: 200, Content: "text/html", InBody: "/graphql"},
		{Name: "unknown path", Method: "GET", Path: "/nowhere", Want: 404},

		{Name: "CSRF: GET without a preflight header is refused", Protected: true, Method: "GET",
			Path: "/graphql?query=%7Bhello%7D", Want: 400, Code: "CSRF_PREVENTION_BLOCKED"},
		{Name: "CSRF: GET with client-require-preflight runs", Protected: true, Method: "GET",
			Path: "/graphql?query=%7Bhello%7D", Header: map[string]string{"client-require-preflight": "true"},
			Want: 200, InBody: `"hello":"world"`},
		{Name: "CSRF: text/plain POST is refused", Protected: true, Method: "POST", Path: "/graphql",
			Header: map[string]string{"Content-Type": "text/plain"}, Body: `{"query":"{ hello }"}`,
			Want: 400, Code: "CSRF_PREVENTION_BLOCKED"},
		{Name: "CSRF: JSON POST runs", Protected: true, Method: "POST", Path: "/graphql", Header: post,
			Body: `{"query":"{ hello }"}`, Want: 200, InBody: `"hello":"world"`},
		{Name: "auth: bad credentials get 401", Protected: true, Method: "POST", Path: "/graphql",
			Header: map[string]string{"Content-Type": jsonCT, "Authorization": "Basic xyz"},
			Body:   `{"query":"{ me }"}`, Want: 401, Code: "UNAUTHENTICATED"},
		{Name: "auth: the user reaches resolvers", Protected: true, Method: "POST", Path: "/graphql",
			Header: map[string]string{"Content-Type": jsonCT, "Authorization": "Bearer ada"},
			Body:   `{"query":"{ me }"}`, Want: 200, InBody: `"me":"ada"`},
	}
}

// Check reports every way r differs from what c expects.
func Check(t testing.TB, c Case, r Result) {
	t.Helper()
	if r.Status != c.Want {
		t.Errorf("status = %d, want %d (body %s)", r.Status, c.Want, r.Body)
	}
	if c.InBody != "" && !strings.Contains(string(r.Body), c.InBody) {
		t.Errorf("body %s lacks %s", r.Body, c.InBody)
	}
	if c.Allow != "" && r.Header.Get("Allow") != c.Allow {
		t.Errorf("Allow = %q, want %q", r.Header.Get("Allow"), c.Allow)
	}
	if c.Content != "" && !strings.HasPrefix(r.Header.Get("Content-Type"), c.Content) {
		t.Errorf("Content-Type = %q, want %s", r.Header.Get("Content-Type"), c.Content)
	}
	if c.Code != "" {
		if got := FirstCode(r.Body); got != c.Code {
			t.Errorf("extensions.code = %q, want %q (body %s)", got, c.Code, r.Body)
		}
	}
}

// FirstCode returns extensions.code of the first error of a GraphQL
// response body, or "" when there is none.
func FirstCode(body []byte) string {
	var v struct {
		Errors []struct {
			Extensions map[string]any `json:"extensions"`
		} `json:"errors"`
	}
	if json.Unmarshal(body, &v) != nil || len(v.Errors) == 0 {
		return ""
	}
	code, _ := v.Errors[0].Extensions["code"].(string)
	return code
}
