package graft_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/examples/starwars"
	"github.com/graftgql/graft/limits"
	"github.com/graftgql/graft/schema"
)

func routerFor(t *testing.T, s *schema.Schema, err error, cfg graft.Config) *graft.Router {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestLimitsOverHTTP checks each limit just under, at and just over its
// value, through fragments on interfaces and with variables.
func TestLimitsOverHTTP(t *testing.T) {
	bs, berr := blog.Schema()
	ss, serr := starwars.Schema()
	depth3 := `{ authors { posts { id } } }`
	// Depth through fragments on an interface: hero > friends > friends > name = 4.
	swDepth4 := `{ hero { ...F } } fragment F on Character { friends { ... on Human { friends { name } } } }`
	aliases3 := `{ a: hello b: hello c: hello }`
	fields4 := `{ hello authors(first: 1) { id name } }`
	tests := []struct {
		name     string
		s        *schema.Schema
		err      error
		cfg      limits.Config
		query    string
		vars     map[string]any
		wantPass bool
		wantType string
		actual   float64
	}{
		{"depth under", bs, berr, limits.Config{MaxDepth: 4}, depth3, nil, true, "", 0},
		{"depth at", bs, berr, limits.Config{MaxDepth: 3}, depth3, nil, true, "", 0},
		{"depth over", bs, berr, limits.Config{MaxDepth: 2}, depth3, nil, false, "depth", 3},
		{"depth through interface fragments at", ss, serr, limits.Config{MaxDepth: 4}, swDepth4, nil, true, "", 0},
		{"depth through interface fragments over", ss, serr, limits.Config{MaxDepth: 3}, swDepth4, nil, false, "depth", 4},
		{"aliases at", bs, berr, limits.Config{MaxAliases: 3}, aliases3, nil, true, "", 0},
		{"aliases over", bs, berr, limits.Config{MaxAliases: 2}, aliases3, nil, false, "aliases", 3},
		{"fields at", bs, berr, limits.Config{MaxFields: 4}, fields4, nil, true, "", 0},
		{"fields over", bs, berr, limits.Config{MaxFields: 3}, fields4, nil, false, "fields", 4},
		{"depth reported before aliases", bs, berr, limits.Config{MaxDepth: 1, MaxAliases: 1}, `{ a: authors { id } b: authors { id } }`, nil, false, "depth", 2},
		{"complexity with variables under", bs, berr, limits.Config{MaxComplexity: 1000000}, `query($n: Int) { authors(first: $n) { posts { id } } }`, map[string]any{"n": 1}, true, "", 0},
		{"introspection is exempt", bs, berr, limits.Config{MaxDepth: 2, MaxFields: 2}, introspectionQuery, nil, true, "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := routerFor(t, tc.s, tc.err, graft.Config{Complexity: tc.cfg})
			body, _ := json.Marshal(map[string]any{"query": tc.query, "variables": tc.vars})
			got := send(t, r, "POST", "/graphql", string(body))
			if tc.wantPass {
				if got.status != 200 || len(got.body.Errors) != 0 {
					t.Fatalf("want success, got %d %s", got.status, got.raw)
				}
				return
			}
			if got.status != 400 || got.code(0) != "COMPLEXITY_LIMIT_EXCEEDED" {
				t.Fatalf("got %d %s", got.status, got.raw)
			}
			ext := got.body.Errors[0]["extensions"].(map[string]any)
			if ext["limitType"] != tc.wantType || ext["actual"] != tc.actual {
				t.Fatalf("extensions = %v", ext)
			}
			msg := got.body.Errors[0]["message"].(string)
			if !strings.HasPrefix(msg, fmt.Sprintf("Query %s of %d exceeds maximum allowed %s of", tc.wantType, int(tc.actual), tc.wantType)) {
				t.Fatalf("message = %q", msg)
			}
		})
	}
}

func TestComplexityMultipliesWithVariables(t *testing.T) {
	bs, err := blog.Schema()
	r := routerFor(t, bs, err, graft.Config{Complexity: limits.Config{MaxComplexity: 50}, ReportComplexity: true})
	q := `query($n: Int) { authors(first: $n) { id } }`
	small, _ := json.Marshal(map[string]any{"query": q, "variables": map[string]any{"n": 2}})
	got := send(t, r, "POST", "/graphql", string(small))
	if got.status != 200 {
		t.Fatalf("small: %d %s", got.status, got.raw)
	}
	c, _ := got.body.Extensions["complexity"].(map[string]any)
	if c == nil || c["complexity"] == nil {
		t.Fatalf("no complexity reported: %s", got.raw)
	}
	big, _ := json.Marshal(map[string]any{"query": q, "variables": map[string]any{"n": 100}})
	got = send(t, r, "POST", "/graphql", string(big))
	if got.status != 400 || got.code(0) != "COMPLEXITY_LIMIT_EXCEEDED" {
		t.Fatalf("big: %d %s", got.status, got.raw)
	}
}

const introspectionQuery = `query IntrospectionQuery { __schema { queryType { name } mutationType { name } types { ...FullType } directives { name locations args { ...InputValue } } } }
fragment FullType on __Type { kind name fields(includeDeprecated: true) { name args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason } inputFields { ...InputValue } interfaces { ...TypeRef } enumValues(includeDeprecated: true) { name } possibleTypes { ...TypeRef } }
fragment InputValue on __InputValue { name type { ...TypeRef } defaultValue }
fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } }`
