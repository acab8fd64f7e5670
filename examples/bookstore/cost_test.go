package bookstore

import (
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/grafttest"
	"github.com/graftgql/graft/limits"
	"github.com/vektah/gqlparser/v2"
)

// TestConnectionCost checks the complexity of connection fields: the
// page size times what is selected under edges, plus pageInfo and
// totalCount once.
func TestConnectionCost(t *testing.T) {
	s, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		query string
		want  int
	}{
		// edges { node { title } } is 3 per book; pageInfo { hasNextPage } 2; totalCount 1.
		{`{ books(first: 50) { edges { node { title } } pageInfo { hasNextPage } totalCount } }`, 1 + 50*3 + 2 + 1},
		{`{ books(last: 10) { edges { cursor node { title author { name } } } } }`, 1 + 10*6},
		{`{ books { edges { node { title } } totalCount } }`, 1 + 20*3 + 1},
		{`{ books(first: 500) { edges { node { title } } } }`, 1 + 100*3},
		// authors is a plain list (1 + children); each author's books page multiplies its own edges.
		{`{ authors { books(first: 5) { edges { node { title } } totalCount } } }`, 1 + (1 + 5*3 + 1)},
	} {
		doc, gerr := gqlparser.LoadQuery(s.AST(), tc.query)
		if gerr != nil {
			t.Fatal(gerr)
		}
		if got := limits.Analyze(s, doc, doc.Operations[0], nil).Complexity; got != tc.want {
			t.Errorf("%s: complexity %d, want %d", tc.query, got, tc.want)
		}
	}
}

// TestRouterRefusesAnExpensivePage checks that the router's complexity
// limit refuses a page whose edges cost too much, while the same fields
// with a small page pass.
func TestRouterRefusesAnExpensivePage(t *testing.T) {
	s, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, graft.NewLayer(), graft.Config{Complexity: limits.Config{MaxComplexity: 100}})
	if err != nil {
		t.Fatal(err)
	}
	c := grafttest.New(r)
	c.Do(t, `{ books(first: 50) { edges { node { title } } totalCount } }`, nil).WantError(t, 400, graft.CodeComplexityLimit)
	c.Do(t, `{ books(first: 30) { edges { node { title } } totalCount } }`, nil).NoErrors(t)
	c.Do(t, `{ books { edges { node { title author { name } } } } }`, nil).WantError(t, 400, graft.CodeComplexityLimit)
}
