package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/envconf"
	"github.com/graftgql/graft/internal/workload"
	"github.com/graftgql/graft/limits"
)

// exampleQueries reads the query cases of an example's tests.
func exampleQueries(t *testing.T, example string) []struct {
	Name      string
	Query     string
	Variables map[string]any
} {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "examples", example, "testdata", "queries.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name      string
		Query     string
		Variables map[string]any
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestDefaultLimitsPassTheQuerySet runs every example query, the
// benchmark workload's q1 to q6 on the blog example, and the standard
// introspection queries of GraphiQL and Apollo against cmd/graft's default
// limits: each must answer without errors.
func TestDefaultLimitsPassTheQuerySet(t *testing.T) {
	apollo, err := os.ReadFile(filepath.Join("testdata", "introspection-apollo.graphql"))
	if err != nil {
		t.Fatal(err)
	}
	for _, example := range []string{"blog", "starwars"} {
		c, _ := newTestClient(t, map[string]string{"GRAFT_EXAMPLE": example})
		type query struct {
			name, query string
			vars        map[string]any
		}
		queries := []query{
			{"GraphiQL introspection", workload.Q4, nil},
			{"Apollo introspection", string(apollo), nil},
		}
		for _, qc := range exampleQueries(t, example) {
			queries = append(queries, query{qc.Name, qc.Query, qc.Variables})
		}
		if example == "blog" {
			var q3vars map[string]any
			if err := json.Unmarshal(workload.Q3Variables, &q3vars); err != nil {
				t.Fatal(err)
			}
			queries = append(queries,
				query{"q1", workload.Q1, nil}, query{"q2", workload.Q2, nil}, query{"q3", workload.Q3, q3vars},
				query{"q5", workload.Q5, nil}, query{"q6", workload.Q6, nil})
		}
		for _, q := range queries {
			t.Run(example+"/"+q.name, func(t *testing.T) {
				resp := c.Do(t, q.query, q.vars)
				if resp.Status != 200 || resp.HasErrorCode("COMPLEXITY_LIMIT_EXCEEDED") {
					t.Fatalf("refused by the default limits: %s", resp)
				}
				if q.name == "GraphiQL introspection" || q.name == "Apollo introspection" || strings.HasPrefix(q.name, "q") {
					resp.NoErrors(t)
				}
			})
		}
	}
}

// TestDefaultLimitsRefuse sends a query just past each default limit and
// expects 400 COMPLEXITY_LIMIT_EXCEEDED naming the limit.
func TestDefaultLimitsRefuse(t *testing.T) {
	deep := "{ hero { " + strings.Repeat("friends { ", 10) + "name" + strings.Repeat(" }", 10) + " } }"
	var aliases, fields strings.Builder
	for i := range 31 {
		fmt.Fprintf(&aliases, "a%d: hello ", i)
	}
	// 20 aliased heroes, each with friends eight levels deep: 20 aliases,
	// depth 10, 540 fields.
	chain := "hero { " + strings.Repeat("id name friends { ", 8) + "id name" + strings.Repeat(" }", 8) + " }"
	for i := range 20 {
		fmt.Fprintf(&fields, "h%d: %s ", i, chain)
	}
	tests := []struct {
		name, example, query, limitType string
	}{
		{"eleven levels", "starwars", deep, limits.LimitDepth},
		{"100 authors with 20 full posts", "blog", "{ authors(first: 100) { id name email posts(first: 20) { id title body likes tags } } }", limits.LimitComplexity},
		{"31 aliases", "blog", "{ " + aliases.String() + "}", limits.LimitAliases},
		{"540 fields", "starwars", "{ " + fields.String() + "}", limits.LimitFields},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := newTestClient(t, map[string]string{"GRAFT_EXAMPLE": tt.example})
			e := c.Do(t, tt.query, nil).WantError(t, 400, "COMPLEXITY_LIMIT_EXCEEDED")
			if e.Extensions["limitType"] != tt.limitType {
				t.Errorf("limitType = %v, want %s: %s", e.Extensions["limitType"], tt.limitType, e.Message)
			}
		})
	}
}

// TestDefaultLimitsSwitchOff shows that an explicit 0 switches a default
// limit off, and that a set value replaces it.
func TestDefaultLimitsSwitchOff(t *testing.T) {
	deep := "{ hero { " + strings.Repeat("friends { ", 10) + "name" + strings.Repeat(" }", 10) + " } }"
	off, _ := newTestClient(t, map[string]string{"GRAFT_EXAMPLE": "starwars", "GRAPHQL_MAX_DEPTH": "0", "GRAPHQL_MAX_RESPONSE_BYTES": "0"})
	if resp := off.Do(t, deep, nil); resp.HasErrorCode("COMPLEXITY_LIMIT_EXCEEDED") {
		t.Errorf("GRAPHQL_MAX_DEPTH=0: %s", resp)
	}
	tight, _ := newTestClient(t, map[string]string{"GRAFT_EXAMPLE": "starwars", "GRAPHQL_MAX_DEPTH": "2"})
	tight.Do(t, "{ hero { friends { name } } }", nil).WantError(t, 400, "COMPLEXITY_LIMIT_EXCEEDED")
}

// TestStartUpPrintsTheLimits checks the start-up line that shows the
// limits in force.
func TestStartUpPrintsTheLimits(t *testing.T) {
	_, log := newTestClient(t, nil)
	for _, want := range []string{"maxDepth=10", "maxComplexity=5000", "maxFields=500", "maxAliases=30", "introspection=true", "graphiql=true"} {
		if !strings.Contains(log, want) {
			t.Errorf("start-up log lacks %s:\n%s", want, log)
		}
	}
	_, log = newTestClient(t, map[string]string{"GRAPHQL_MAX_DEPTH": "0"})
	if !strings.Contains(log, "maxDepth=0") {
		t.Errorf("start-up log with GRAPHQL_MAX_DEPTH=0:\n%s", log)
	}
}

// TestHelpListsTheDeclaration checks that --help lists every declared
// variable with cmd/graft's default.
func TestHelpListsTheDeclaration(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"--help"}, func(string) (string, bool) { return "", false }, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("graft --help exited %d: %s", code, errOut.String())
	}
	for _, s := range envconf.Sections() {
		for _, v := range s.Vars {
			def := v.Default
			if v.Graft != "" {
				def = v.Graft
			}
			if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(v.Name) + ` +` + regexp.QuoteMeta(def) + `  `).MatchString(out.String()) {
				t.Errorf("--help lacks %s with default %q", v.Name, def)
			}
		}
	}
}
