package limits_test

import (
	"context"
	"testing"

	"github.com/graftgql/graft/limits"
	"github.com/graftgql/graft/schema"
	"github.com/vektah/gqlparser/v2"
)

type pcItem struct{ Title string }

type pcEdge struct {
	Cursor string
	Node   pcItem
}

type pcPageInfo struct{ HasNextPage bool }

type pcConnection struct {
	Edges      []pcEdge
	Nodes      []pcItem
	PageInfo   pcPageInfo
	TotalCount int
}

type pcArgs struct {
	First *int
	Last  *int
}

// pageSchema declares a connection field with schema.PageCost: the page
// size from first or last, 20 by default, at most 100.
func pageSchema(t *testing.T) *schema.Schema {
	t.Helper()
	b := schema.New()
	schema.Object[pcItem](b, "Item")
	schema.Object[pcEdge](b, "ItemEdge")
	schema.Object[pcPageInfo](b, "PageInfo")
	schema.Object[pcConnection](b, "ItemConnection")
	schema.Query(b, "items", func(context.Context, pcArgs) (pcConnection, error) { return pcConnection{}, nil },
		schema.PageCost(schema.Paging{SizeArgs: []string{"first", "last"}, ItemFields: []string{"edges", "nodes"}, DefaultSize: 20, MaxSize: 100}))
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestPageCostMultipliesOnlyTheItems(t *testing.T) {
	s := pageSchema(t)
	tests := []struct {
		name  string
		query string
		vars  map[string]any
		want  int
	}{
		// edges { cursor node { title } } costs 1 + 1 + (1 + 1) = 4 per
		// item; pageInfo { hasNextPage } 2 and totalCount 1, once.
		{"first: 50 with pageInfo and totalCount", `{ items(first: 50) { edges { cursor node { title } } pageInfo { hasNextPage } totalCount } }`, nil, 1 + 50*4 + 2 + 1},
		{"last counts like first", `{ items(last: 10) { edges { cursor } totalCount } }`, nil, 1 + 10*2 + 1},
		{"nodes are items too", `{ items(first: 5) { nodes { title } edges { cursor } } }`, nil, 1 + 5*(2+2)},
		{"a variable page size", `query($n: Int) { items(first: $n) { edges { cursor } } }`, map[string]any{"n": 7}, 1 + 7*2},
		{"missing first and last counts the default page", `{ items { edges { cursor } pageInfo { hasNextPage } } }`, nil, 1 + 20*2 + 2},
		{"a null first counts the default page", `{ items(first: null) { edges { cursor } } }`, nil, 1 + 20*2},
		{"above the maximum counts the maximum", `{ items(first: 100000) { edges { cursor } } }`, nil, 1 + 100*2},
		{"a negative size counts nothing", `{ items(first: -5) { edges { cursor } totalCount } }`, nil, 1 + 1},
		{"fragments split the same way", `{ items(first: 50) { ...page } } fragment page on ItemConnection { edges { cursor node { title } } ... on ItemConnection { totalCount } }`, nil, 1 + 50*4 + 1},
		{"only fixed fields cost once", `{ items(first: 50) { totalCount pageInfo { hasNextPage } } }`, nil, 1 + 1 + 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := gqlparser.LoadQuery(s.AST(), tc.query)
			if err != nil {
				t.Fatal(err)
			}
			got := limits.Analyze(s, doc, doc.Operations[0], tc.vars).Complexity
			if got != tc.want {
				t.Errorf("complexity = %d, want %d", got, tc.want)
			}
		})
	}
}

// TestPageCostRefusesAboveTheLimit checks that the analysis refuses a
// page that a plain per-field cost would let through, and passes the same
// query with a smaller page.
func TestPageCostRefusesAboveTheLimit(t *testing.T) {
	s := pageSchema(t)
	cfg := limits.Config{MaxComplexity: 150}
	check := func(q string) error {
		doc, err := gqlparser.LoadQuery(s.AST(), q)
		if err != nil {
			t.Fatal(err)
		}
		if e := cfg.Check(limits.Analyze(s, doc, doc.Operations[0], nil)); e != nil {
			return e
		}
		return nil
	}
	if err := check(`{ items(first: 50) { edges { node { title } } } }`); err == nil {
		t.Error("first: 50 of 3-point edges passed a limit of 150")
	}
	if err := check(`{ items(first: 40) { edges { node { title } } } }`); err != nil {
		t.Errorf("first: 40 of 3-point edges refused: %v", err)
	}
	if err := check(`{ items { edges { node { title } } } }`); err != nil {
		t.Errorf("the default page of 20 refused: %v", err)
	}
}
