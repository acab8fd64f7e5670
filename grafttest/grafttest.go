// Package grafttest sends GraphQL requests to a graft router in tests,
// in process and without a network, and reads the answers; Subscribe
// opens subscriptions over Server-Sent Events or WebSocket.
//
//	c := grafttest.New(router) // or any http.Handler with the router inside
//	resp := c.Do(t, `query($id: ID!) { author(id: $id) { name } }`, map[string]any{"id": "a1"})
//	resp.NoErrors(t)
//	var data struct{ Author struct{ Name string } }
//	resp.Decode(t, &data)
//
// A request goes through the handler's ServeHTTP exactly as one from a
// client would: decoding, persisted queries, CSRF prevention, the Auth
// hook, limits and the status code. Options set headers, the operation
// name, GET instead of POST, the persisted-query extension and the
// request's context (the test's, t.Context(), by default).
package grafttest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
)

// Client sends requests to one handler: a *graft.Router, or an
// application's own mux or middleware with the router inside.
type Client struct {
	// Path is the GraphQL path. Default "/graphql"; set it when the
	// router's Config.Path (or the mux's route) differs.
	Path string
	// Header is sent with every request, before the options' headers.
	Header http.Header

	handler http.Handler
}

// New returns a client of h, typically a *graft.Router.
func New(h http.Handler) *Client {
	return &Client{Path: "/graphql", Header: http.Header{}, handler: h}
}

// Option adjusts one request.
type Option func(*request)

type request struct {
	ctx           context.Context
	header        http.Header
	operationName string
	get           bool
	persisted     bool
	hashOnly      bool
	extensions    map[string]any
}

// Header sets a request header, for example Authorization.
func Header(key, value string) Option {
	return func(r *request) { r.header.Set(key, value) }
}

// OperationName selects the operation to run in a document holding
// several.
func OperationName(name string) Option {
	return func(r *request) { r.operationName = name }
}

// GET sends the request as a GET with the parameters in the query string,
// instead of a JSON POST. It adds the client-require-preflight header, so
// that a router with CSRF prevention runs it too.
func GET() Option {
	return func(r *request) {
		r.get = true
		r.header.Set("client-require-preflight", "1")
	}
}

// Persisted adds the persisted-query extension (Apollo's layout, version 1,
// the SHA-256 of the query) and sends the query with it, which registers
// the query with automatic persisted queries.
func Persisted() Option {
	return func(r *request) { r.persisted = true }
}

// HashOnly adds the persisted-query extension like Persisted, but sends
// the hash without the query, as a client does once the query is known.
func HashOnly() Option {
	return func(r *request) { r.persisted, r.hashOnly = true, true }
}

// Context sends the request with ctx (its values reach the Auth hook and
// the resolvers) instead of the test's context.
func Context(ctx context.Context) Option {
	return func(r *request) { r.ctx = ctx }
}

// Extensions sets the request's extensions object.
func Extensions(ext map[string]any) Option {
	return func(r *request) { r.extensions = ext }
}

// Do sends query with the variables vars (nil for none) and returns the
// answer. It fails t only when the answer is not a GraphQL response body;
// assertions about status, data and errors are the caller's (see
// Response).
func (c *Client) Do(t testing.TB, query string, vars map[string]any, opts ...Option) *Response {
	t.Helper()
	r := c.options(t, opts)
	req := c.build(t, r, query, vars)
	rec := httptest.NewRecorder()
	c.handler.ServeHTTP(rec, req)
	return newResponse(t, rec.Result().StatusCode, rec.Header(), rec.Body.Bytes())
}

// options applies opts to a request with the test's context.
func (c *Client) options(t testing.TB, opts []Option) request {
	r := request{header: http.Header{}, ctx: t.Context()}
	for _, o := range opts {
		o(&r)
	}
	if r.ctx == nil {
		r.ctx = context.Background() // a testing.T made outside the test runner
	}
	return r
}

// build makes the HTTP request of one operation, with the client's and
// the options' headers.
func (c *Client) build(t testing.TB, r request, query string, vars map[string]any) *http.Request {
	t.Helper()
	ext := r.extensions
	if r.persisted {
		ext = make(map[string]any, len(r.extensions)+1)
		for k, v := range r.extensions {
			ext[k] = v
		}
		sum := sha256.Sum256([]byte(query))
		ext["persistedQuery"] = map[string]any{"version": 1, "sha256Hash": hex.EncodeToString(sum[:])}
		if r.hashOnly {
			query = ""
		}
	}
	req := c.newRequest(t, r, query, vars, ext)
	for k, vs := range c.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	for k, vs := range r.header {
		req.Header[k] = vs
	}
	return req.WithContext(r.ctx)
}

// newRequest builds the POST or GET for one operation.
func (c *Client) newRequest(t testing.TB, r request, query string, vars, ext map[string]any) *http.Request {
	t.Helper()
	path := c.Path
	if path == "" {
		path = "/graphql"
	}
	if r.get {
		q := url.Values{}
		if query != "" {
			q.Set("query", query)
		}
		if r.operationName != "" {
			q.Set("operationName", r.operationName)
		}
		if vars != nil {
			q.Set("variables", string(mustJSON(t, vars)))
		}
		if ext != nil {
			q.Set("extensions", string(mustJSON(t, ext)))
		}
		return httptest.NewRequest(http.MethodGet, path+"?"+q.Encode(), nil)
	}
	body := map[string]any{}
	if query != "" {
		body["query"] = query
	}
	if r.operationName != "" {
		body["operationName"] = r.operationName
	}
	if vars != nil {
		body["variables"] = vars
	}
	if ext != nil {
		body["extensions"] = ext
	}
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(mustJSON(t, body)))
	req.Header.Set("Content-Type", "application/json")
	return req
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("grafttest: encode request: %v", err)
	}
	return b
}
