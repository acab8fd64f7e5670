package exec

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/workload"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// repeatJoin returns n copies of format (formatted with the copy's index
// and the next index), joined by spaces.
func repeatJoin(n int, format string) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, format+" ", i, i+1)
	}
	return b.String()
}

// aliases returns n aliased copies of hello: a0: hello a1: hello ...
func aliases(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "a%d: hello ", i)
	}
	return b.String()
}

func TestCheckValidationBudget(t *testing.T) {
	intro, err := workload.ReadFile("q4.graphql")
	if err != nil {
		intro = nil
	}
	tests := []struct {
		name    string
		query   string
		refused bool
	}{
		{name: "small query", query: `{ hello }`},
		{name: "fragments and a variable", query: `query A($id: ID!) { author(id: $id) { ...F posts(first: 20) { ...P } } } fragment F on Author { id name } fragment P on Post { id title body likes }`},
		{name: "ten thousand aliases", query: "{" + aliases(10000) + "}"},
		{name: "a hundred copies of a field with sub-selections", query: "{" + strings.Repeat("hero { name friends { name } } ", 100) + "}"},
		{name: "fragment cycle is left to NoFragmentCycles", query: `{ ...A } fragment A on Query { ...B hello } fragment B on Query { ...A }`},
		{name: "fragment cycle through merged fields", query: `{ hero { ...F } } fragment F on Character { friends { ...F ...F ...F } name }`},
		{name: "fragment cycle through merged fields of many fragments", query: `{ hero { ...F0 } }` + repeatJoin(30, "fragment F%d on Character { friends { ...F%d ...F%[1]d ...F0 } name }") + " fragment F30 on Character { friends { ...F0 } }"},
		{name: "ten thousand copies of a field beside a fragment cycle", query: "{ ...A } fragment A on Query { ...A " + strings.Repeat("hello ", 10000) + "}", refused: true},
		{name: "ten thousand spreads of a fragment on a cycle", query: "{" + strings.Repeat("...A ", 10000) + "} fragment A on Query { ...A }", refused: true},
		{name: "ten thousand copies of one field", query: "{" + strings.Repeat("hello ", 10000) + "}", refused: true},
		{name: "one field repeated under aliases of one name", query: "{" + strings.Repeat("x: hello ", 1000) + "}", refused: true},
		{name: "ten thousand copies of one spread", query: "{" + strings.Repeat("...F ", 10000) + "} fragment F on Query { hello }", refused: true},
		{name: "ten thousand fragment chain", query: "{ ...F0 }" + repeatJoin(10000, "fragment F%d on Query { hello ...F%d }") + " fragment F10000 on Query { hello }", refused: true},
		{name: "two thousand fragment chain", query: "{ ...F0 }" + repeatJoin(2000, "fragment F%d on Query { hello ...F%d }") + " fragment F2000 on Query { hello }", refused: true},
		{name: "exponential fragment fan-out", query: "{ ...F0 }" + repeatJoin(40, "fragment F%d on Query { ...F%[2]d ...F%[2]d }") + " fragment F40 on Query { hello }", refused: true},
		{name: "copies nested under copies", query: "{" + strings.Repeat("hero { "+strings.Repeat("name ", 300)+"} ", 300) + "}", refused: true},
	}
	if intro != nil {
		tests = append(tests, struct {
			name    string
			query   string
			refused bool
		}{name: "standard introspection query", query: string(intro)})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, perr := parser.ParseQuery(&ast.Source{Input: tc.query})
			if perr != nil {
				t.Fatalf("parse: %v", perr)
			}
			ge := CheckValidationBudget(doc, 0)
			if (ge != nil) != tc.refused {
				t.Fatalf("refused = %v, want %v (%v)", ge != nil, tc.refused, ge)
			}
			if ge == nil {
				return
			}
			if ge.Extensions["code"] != gqlerr.ValidationFailed || ge.Extensions["reason"] != reasonValidationBudget {
				t.Fatalf("extensions = %v", ge.Extensions)
			}
			if len(ge.Message) > 200 {
				t.Fatalf("message too long: %q", ge.Message)
			}
		})
	}
}

// TestCheckValidationBudgetBoundsItsOwnWork checks that the estimate of a
// document built to explode (2^40 expanded fields) allocates little: it
// stops when the budget is spent.
func TestCheckValidationBudgetBoundsItsOwnWork(t *testing.T) {
	doc, perr := parser.ParseQuery(&ast.Source{Input: "{ ...F0 }" + repeatJoin(40, "fragment F%d on Query { ...F%[2]d ...F%[2]d }") + " fragment F40 on Query { hello }"})
	if perr != nil {
		t.Fatal(perr)
	}
	allocs := testing.AllocsPerRun(5, func() {
		if CheckValidationBudget(doc, 1000) == nil {
			t.Fatal("not refused")
		}
	})
	if allocs > 2000 {
		t.Fatalf("%v allocations for a budget of 1000", allocs)
	}
}

func TestCheckValidationBudgetCustomLimit(t *testing.T) {
	doc, perr := parser.ParseQuery(&ast.Source{Input: "{" + strings.Repeat("hello ", 10) + "}"})
	if perr != nil {
		t.Fatal(perr)
	}
	for _, tc := range []struct {
		budget  int
		refused bool
	}{{budget: 1000}, {budget: 110}, {budget: 109, refused: true}, {budget: 0}, {budget: -1}} {
		if got := CheckValidationBudget(doc, tc.budget) != nil; got != tc.refused {
			t.Errorf("budget %d: refused = %v, want %v", tc.budget, got, tc.refused)
		}
	}
}

func TestCyclicFragments(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  string
	}{
		{`{ ...A } fragment A on Query { hello }`, ""},
		{`{ ...A } fragment A on Query { ...A }`, "A"},
		{`{ ...A } fragment A on Query { x { ...B } } fragment B on Query { ...C } fragment C on Query { ...A } fragment D on Query { ...A }`, "A B C"},
		{`{ ...A } fragment A on Query { ...B ...B } fragment B on Query { ...C } fragment C on Query { hello }`, ""},
		{`{ ...A } fragment A on Query { ...Missing ...B } fragment B on Query { ... on Query { ...B } }`, "B"},
	} {
		doc, perr := parser.ParseQuery(&ast.Source{Input: tc.query})
		if perr != nil {
			t.Fatal(perr)
		}
		frags := map[string]*ast.FragmentDefinition{}
		for _, f := range doc.Fragments {
			frags[f.Name] = f
		}
		var got []string
		for name := range cyclicFragments(frags) {
			got = append(got, name)
		}
		slices.Sort(got)
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s: cyclic %v, want %q", tc.query, got, tc.want)
		}
	}
}
