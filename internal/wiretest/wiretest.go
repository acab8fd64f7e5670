// Package wiretest holds the wire contract: the black-box HTTP cases every
// graft transport must pass (net/http, fasthttp, AWS Lambda, the web
// handler), kept as data in wire.json, with the schema and router
// configuration they assume. Each transport's test turns a Case into a
// request on its own wire and hands the answer to Check, so all hosts are
// held to the same behaviour; a test holds README.md's status table to the
// same file.
package wiretest

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/graftgql/graft/limits"
	"github.com/graftgql/graft/schema"
)

// MaxBodyBytes is the body limit of the router the cases assume.
const MaxBodyBytes = 1024

// UserHeader is the request header the whoami field echoes, to show that
// adapters pass headers through.
const UserHeader = "X-User"

// MaxDepth is the depth limit of Router and ProtectedRouter.
const MaxDepth = 4

// Case is one request and the answer expected of every transport: one
// entry of wire.json.
type Case struct {
	Name   string            `json:"name"`
	Method string            `json:"method"`
	Path   string            `json:"path"` // with the query string, if any
	Header map[string]string `json:"header"`
	Body   string            `json:"body"`
	Want   int               `json:"status"`
	// ByPolicy is the status under the status-code policies ("spec",
	// "legacy") where it differs from Want, the default (apollo) policy's.
	ByPolicy map[string]int `json:"statusByPolicy"`
	// Code is extensions.code of the first error; "" for no check.
	Code string `json:"code"`
	// InBody is a substring of the body; "" for no check.
	InBody string `json:"inBody"`
	// Allow is the Allow header; "" means the answer has none.
	Allow string `json:"allow"`
	// Content is a Content-Type prefix; "" for no check.
	Content string `json:"contentType"`
	// Protected cases run against ProtectedRouter (CSRF protection and
	// the auth hook on), the others against Router.
	Protected bool `json:"protected"`
	// Readme is the condition of the README status table's row this case
	// shows, if any.
	Readme string `json:"readme"`
}

// Under returns c with the status it expects under the status-code
// policy (graft.StatusCodes; "" or "apollo" for the default).
func (c Case) Under(policy graft.StatusCodes) Case {
	if s, ok := c.ByPolicy[string(policy)]; ok {
		c.Want = s
	}
	return c
}

// Uncovered is a README status-table row that no request can show, with
// the reason.
type Uncovered struct {
	Row string `json:"row"`
	Why string `json:"why"`
}

//go:embed wire.json
var wireJSON []byte

// contract is wire.json.
type contract struct {
	Cases                 []Case      `json:"cases"`
	ReadmeRowsWithoutCase []Uncovered `json:"readmeRowsWithoutCase"`
}

func load() contract {
	var c contract
	if err := json.Unmarshal(wireJSON, &c); err != nil {
		panic("wiretest: wire.json: " + err.Error()) // a broken file fails every transport's test at once
	}
	return c
}

// Cases returns the cases of wire.json.
func Cases() []Case { return load().Cases }

// ReadmeRowsWithoutCase returns the README rows wire.json explains it
// cannot show with a request.
func ReadmeRowsWithoutCase() []Uncovered { return load().ReadmeRowsWithoutCase }

// Result is a transport's answer to a Case.
type Result struct {
	Status int
	Header http.Header
	Body   []byte
}

// Node is an object that nests without end, for depth limits.
type Node struct {
	ID   string
	Next *Node
}

var loop = func() *Node { n := &Node{ID: "n"}; n.Next = n; return n }()

type echoArgs struct{ Text string }

// Schema returns the schema the cases query: hello (returns "world"),
// whoami (returns the X-User header), me (the user the auth hook put in
// the context), echo(text), fail (a FORBIDDEN error), boom (panics with
// "kaboom"), node { id next { ... } } (nests without end) and the
// mutation ping (returns "pong").
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
	schema.QueryNoArgs(b, "fail", func(context.Context) (*string, error) {
		return nil, &gqlerror.Error{Message: "not allowed", Extensions: map[string]any{"code": "FORBIDDEN"}}
	})
	schema.QueryNoArgs(b, "boom", func(context.Context) (*string, error) { panic("kaboom") })
	schema.Query(b, "echo", func(_ context.Context, a echoArgs) (string, error) { return a.Text, nil })
	schema.Object[Node](b, "Node")
	schema.QueryNoArgs(b, "node", func(context.Context) (*Node, error) { return loop, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatalf("wiretest: build schema: %v", err)
	}
	return s
}

// Config is the router configuration the cases assume: GraphQL at
// /graphql, GraphiQL at /graphiql, MaxBodyBytes and MaxDepth, and a logger
// that drops the panic the boom case logs.
func Config() graft.Config {
	return graft.Config{
		MaxBodyBytes: MaxBodyBytes,
		GraphiQL:     &graft.GraphiQLConfig{},
		Complexity:   limits.Config{MaxDepth: MaxDepth},
		Logger:       slog.New(slog.DiscardHandler),
	}
}

// Router returns a router over Schema with Config.
func Router(t testing.TB) *graft.Router {
	t.Helper()
	return RouterWith(t, "")
}

// RouterWith is Router with the status-code policy p.
func RouterWith(t testing.TB, p graft.StatusCodes) *graft.Router {
	t.Helper()
	cfg := Config()
	cfg.StatusCodes = p
	r, err := graft.NewRouter(Schema(t), graft.NewLayer(), cfg)
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
	return ProtectedRouterWith(t, "")
}

// ProtectedRouterWith is ProtectedRouter with the status-code policy p.
func ProtectedRouterWith(t testing.TB, p graft.StatusCodes) *graft.Router {
	t.Helper()
	cfg := Config()
	cfg.StatusCodes = p
	cfg.GraphiQL = nil
	cfg.CSRF = &graft.CSRFConfig{}
	cfg.Auth = func(ctx context.Context, r *graft.AuthRequest) (context.Context, error) {
		auth := r.Header("Authorization")
		if auth == "" {
			return ctx, nil
		}
		user, ok := strings.CutPrefix(auth, "Bearer ")
		if !ok || user == "" {
			return nil, errors.New("invalid credentials")
		}
		return context.WithValue(ctx, userKey{}, user), nil
	}
	r, err := graft.NewRouter(Schema(t), graft.NewLayer(), cfg)
	if err != nil {
		t.Fatalf("wiretest: NewRouter: %v", err)
	}
	return r
}

type userKey struct{}

// Check reports every way r differs from what c expects.
func Check(t testing.TB, c Case, r Result) {
	t.Helper()
	if r.Status != c.Want {
		t.Errorf("status = %d, want %d (body %s)", r.Status, c.Want, r.Body)
	}
	if c.InBody != "" && !strings.Contains(string(r.Body), c.InBody) {
		t.Errorf("body %s lacks %s", r.Body, c.InBody)
	}
	if r.Header.Get("Allow") != c.Allow {
		t.Errorf("Allow = %q, want %q", r.Header.Get("Allow"), c.Allow)
	}
	if c.Want >= 400 && c.Want != http.StatusNotFound && len(errorsOf(r.Body)) == 0 {
		t.Errorf("status %d without GraphQL errors: %s", c.Want, r.Body)
	}
	if strings.HasPrefix(c.Path, "/graphql") {
		checkGraphQLBody(t, r)
	}
	for _, leak := range []string{"goroutine", "kaboom"} {
		if strings.Contains(string(r.Body), leak) {
			t.Errorf("the body leaks internal detail %q: %s", leak, r.Body)
		}
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
	errs := errorsOf(body)
	if len(errs) == 0 {
		return ""
	}
	code, _ := errs[0].Extensions["code"].(string)
	return code
}

type responseError struct {
	Message    string         `json:"message"`
	Extensions map[string]any `json:"extensions"`
}

// Bounds every answer of the GraphQL endpoint keeps, whatever the input.
const (
	maxErrors       = 100       // Config.MaxErrors' default
	maxMessageBytes = 1024      // in one error message
	maxErrorBody    = 256 << 10 // bytes of an answer without data
)

// checkGraphQLBody holds an answer of the GraphQL endpoint to the
// invariants every answer keeps: a JSON body with data or errors, every
// error with a message of bounded length, a code on every error of a
// request that failed, and a bounded number of errors.
func checkGraphQLBody(t testing.TB, r Result) {
	t.Helper()
	var v struct {
		Data   json.RawMessage `json:"data"`
		Errors []responseError `json:"errors"`
	}
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Errorf("body is not JSON (%v): %.300s", err, r.Body)
		return
	}
	hasData := len(v.Data) > 0 && string(v.Data) != "null"
	if !hasData && len(v.Errors) == 0 {
		t.Errorf("neither data nor errors: %.300s", r.Body)
	}
	if len(v.Errors) > maxErrors {
		t.Errorf("%d errors, more than %d", len(v.Errors), maxErrors)
	}
	if !hasData && len(r.Body) > maxErrorBody {
		t.Errorf("error answer of %d bytes", len(r.Body))
	}
	for i, e := range v.Errors {
		if e.Message == "" || len(e.Message) > maxMessageBytes {
			t.Errorf("error %d: message of %d bytes", i, len(e.Message))
		}
		if r.Status != http.StatusOK && e.Extensions["code"] == nil {
			t.Errorf("error %d of a %d answer has no extensions.code: %s", i, r.Status, e.Message)
		}
	}
}

// errorsOf returns the errors of a GraphQL response body, none when the
// body is not one.
func errorsOf(body []byte) []responseError {
	var v struct {
		Errors []responseError `json:"errors"`
	}
	if json.Unmarshal(body, &v) != nil {
		return nil
	}
	return v.Errors
}
