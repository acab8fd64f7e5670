package main

import (
	"encoding/json"
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
	srv := startServer(t, map[string]string{"GRAFT_EXAMPLE": "federation-products"})
	status, _, raw := call(t, "POST", srv.URL+"/graphql", `{"query":"{ product(id: \"apollo-studio\") { sku } }"}`,
		map[string]string{"Content-Type": "application/json", "apollo-federation-include-trace": "ftv1"})
	var body struct {
		Data       json.RawMessage
		Extensions map[string]string
	}
	if err := json.Unmarshal([]byte(raw), &body); err != nil {
		t.Fatal(err)
	}
	if status != 200 || string(body.Data) != `{"product":{"sku":"studio"}}` || len(body.Extensions) != 1 || body.Extensions["ftv1"] == "" {
		t.Errorf("got %d %s, want the data and only extensions.ftv1", status, raw)
	}
}
