package main

import (
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
