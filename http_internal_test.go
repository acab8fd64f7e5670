package graft

import (
	"net/http/httptest"
	"testing"
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
		streaming := isWebSocket(req) || r.isSSE(req) || acceptsMultipart(req.Header.Values("Accept"))
		if c.plain && streaming {
			t.Errorf("%s %v: let through, but a streaming transport takes it", c.method, c.headers)
		}
	}
}
