package main

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestFederationExamplesServeSubgraphs(t *testing.T) {
	for _, tc := range []struct{ example, want string }{
		{"federation-products", `extend type User @key(fields: \"email\")`},
		{"federation-reviews", `type Product @key(fields: \"id\")`},
	} {
		t.Run(tc.example, func(t *testing.T) {
			c, _ := newTestClient(t, map[string]string{"GRAFT_EXAMPLE": tc.example})
			res := c.Do(t, `{ _service { sdl } }`, nil)
			res.NoErrors(t)
			if !strings.Contains(string(res.Data), tc.want) || !strings.Contains(string(res.Data), "specs.apollo.dev/federation/v2.3") {
				t.Errorf("_service.sdl lacks %s or the federation @link: %s", tc.want, res.Data)
			}
		})
	}
}

func TestFederationExampleAnswersFTV1(t *testing.T) {
	srv, err := newServer(func(name string) (string, bool) {
		if name == "GRAFT_EXAMPLE" {
			return "federation-products", true
		}
		return "", false
	}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.close)
	req := httptest.NewRequest("POST", "/graphql", strings.NewReader(`{"query":"{ product(id: \"apollo-studio\") { sku } }"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("apollo-federation-include-trace", "ftv1")
	rec := httptest.NewRecorder()
	srv.opts.Handler.ServeHTTP(rec, req)
	var body struct {
		Data       json.RawMessage
		Extensions map[string]string
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	if rec.Code != 200 || string(body.Data) != `{"product":{"sku":"studio"}}` || len(body.Extensions) != 1 || body.Extensions["ftv1"] == "" {
		t.Errorf("got %d %s, want the data and only extensions.ftv1", rec.Code, rec.Body)
	}
}
