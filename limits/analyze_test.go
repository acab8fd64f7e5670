package limits

import (
	"encoding/json"
	"math"
	"testing"
)

func TestAnalyze(t *testing.T) {
	s := loadSchema(t, testSDL)
	tests := []struct {
		name  string
		query string
		vars  map[string]any
		want  Result
	}{
		{
			name:  "a root field has depth 1 and costs 1",
			query: `{ hello }`,
			want:  Result{Depth: 1, Complexity: 1, Fields: 1},
		},
		{
			name:  "an argument default multiplies the children",
			query: `{ authors { id name } }`,
			want:  Result{Depth: 2, Complexity: 1 + 10*2, Fields: 3},
		},
		{
			name:  "nested literal arguments multiply",
			query: `{ authors(first: 50) { id posts(first: 10) { id title } } }`,
			want:  Result{Depth: 3, Complexity: 1 + 50*(1+(1+10*2)), Fields: 5},
		},
		{
			name:  "a coerced variable multiplies",
			query: `query Q($n: Int) { authors(first: $n) { id } }`,
			vars:  map[string]any{"n": int64(3)},
			want:  Result{Depth: 2, Complexity: 1 + 3, Fields: 2},
		},
		{
			name:  "a variable decoded from JSON as float64 counts as an Int",
			query: `query Q($n: Int) { authors(first: $n) { id } }`,
			vars:  map[string]any{"n": float64(3)},
			want:  Result{Depth: 2, Complexity: 1 + 3, Fields: 2},
		},
		{
			name:  "a json.Number variable counts as an Int",
			query: `query Q($n: Int) { authors(first: $n) { id } }`,
			vars:  map[string]any{"n": json.Number("4")},
			want:  Result{Depth: 2, Complexity: 1 + 4, Fields: 2},
		},
		{
			name:  "an absent variable leaves the argument default",
			query: `query Q($n: Int) { authors(first: $n) { id } }`,
			want:  Result{Depth: 2, Complexity: 1 + 10, Fields: 2},
		},
		{
			name:  "an absent variable takes its own default",
			query: `query Q($n: Int = 5) { authors(first: $n) { id } }`,
			want:  Result{Depth: 2, Complexity: 1 + 5, Fields: 2},
		},
		{
			name:  "an explicit null is passed as nil, not replaced by the default",
			query: `query Q($n: Int) { authors(first: $n) { id } }`,
			vars:  map[string]any{"n": nil},
			want:  Result{Depth: 2, Complexity: 1, Fields: 2},
		},
		{
			name:  "aliases are counted, unaliased fields are not",
			query: `{ a: hello b: hello hello same: hello }`,
			want:  Result{Depth: 1, Complexity: 4, Fields: 4, Aliases: 3},
		},
		{
			name:  "each spread counts, and expands its fragment again",
			query: `{ ...Q ...Q } fragment Q on Query { hello authors { id } }`,
			want:  Result{Depth: 2, Complexity: 2 * (1 + 11), Fields: 2 * (1 + 3)},
		},
		{
			name: "union branches take the maximum over possible types",
			query: `{ search(text: "x") {
				... on Human { id starships { id name } }
				... on Droid { id primaryFunction }
				... on Starship { id }
			} }`,
			want: Result{Depth: 3, Complexity: 1 + 5*(1+(1+2*2)), Fields: 8},
		},
		{
			name: "a fragment on an interface applies to every implementation in a union",
			query: `{ search(text: "x") {
				... on Character { name friends { name } }
				... on Human { homePlanet }
			} }`,
			want: Result{Depth: 3, Complexity: 1 + 5*(1+(1+3*1)+1), Fields: 5},
		},
		{
			name:  "fields hidden in a named fragment on a union member are counted; Human.friends has the default cost",
			query: `{ search(text: "x") { ...H } } fragment H on Human { friends { friends { friends { name } } } }`,
			want:  Result{Depth: 5, Complexity: 1 + 5*(1+(1+3*(1+3*1))), Fields: 6},
		},
		{
			name:  "an object fragment uses the object's cost declaration",
			query: `{ node(id: "1") { ... on Human { friends { id } } } }`,
			want:  Result{Depth: 3, Complexity: 1 + (1 + 1), Fields: 3},
		},
		{
			name:  "an interface selection uses the interface's cost declaration",
			query: `{ characters { friends { id } } }`,
			want:  Result{Depth: 3, Complexity: 1 + 10*(1+3*1), Fields: 3},
		},
		{
			name:  "input object literal with an input field default",
			query: `{ characters(filter: {minLikes: 1}) { name } }`,
			want:  Result{Depth: 2, Complexity: 1 + 7, Fields: 2},
		},
		{
			name:  "input object variable",
			query: `query Q($f: Filter) { characters(filter: $f) { name } }`,
			vars:  map[string]any{"f": map[string]any{"first": float64(2)}},
			want:  Result{Depth: 2, Complexity: 1 + 2, Fields: 2},
		},
		{
			name:  "input object variable with the input field default applied",
			query: `query Q($f: Filter) { characters(filter: $f) { name } }`,
			vars:  map[string]any{"f": map[string]any{"minLikes": 3}},
			want:  Result{Depth: 2, Complexity: 1 + 7, Fields: 2},
		},
		{
			name:  "an Int literal for a Float argument is a float64",
			query: `{ scale(factor: 3) }`,
			want:  Result{Depth: 1, Complexity: 30, Fields: 1},
		},
		{
			name:  "a Float argument default",
			query: `{ scale }`,
			want:  Result{Depth: 1, Complexity: 20, Fields: 1},
		},
		{
			name:  "a panicking cost function counts as the largest cost",
			query: `{ boom hello }`,
			want:  Result{Depth: 1, Complexity: math.MaxInt, Fields: 2},
		},
		{
			name:  "a negative cost counts as the largest cost",
			query: `{ negative }`,
			want:  Result{Depth: 1, Complexity: math.MaxInt, Fields: 1},
		},
		{
			name:  "introspection and __typename are exempt, measured by their own depth and fields",
			query: `{ __typename hello __schema { types { name fields { name } } } }`,
			want:  Result{Depth: 1, Complexity: 1, Fields: 1, IntrospectionDepth: 4, IntrospectionLists: 2, IntrospectionRoots: 1, IntrospectionFields: 5},
		},
		{
			name:  "__type is introspection too, and its alias counts",
			query: `{ t: __type(name: "Human") { name @log } }`,
			want:  Result{Aliases: 1, IntrospectionDepth: 2, IntrospectionRoots: 1, IntrospectionFields: 2},
		},
		{
			name:  "introspection reached through a field of the root type",
			query: `{ viewer { hello __schema { queryType { name } } } }`,
			want:  Result{Depth: 2, Complexity: 2, Fields: 2, IntrospectionDepth: 3, IntrospectionRoots: 1, IntrospectionFields: 3},
		},
		{
			name:  "introspection lists nest along a path, fragments repeat roots, spreads still count as fields",
			query: `{ a: __schema { ...T } b: __schema { ...T } ...S ...S } fragment S on Query { __type(name: "Human") { name } } fragment T on __Schema { types { fields { type { fields { name } } } } }`,
			want:  Result{Fields: 2, Aliases: 2, IntrospectionDepth: 6, IntrospectionLists: 3, IntrospectionRoots: 4, IntrospectionFields: 16},
		},
		{
			name: "every directive is counted once per expansion",
			query: `query Q($s: Boolean = false @log) @log {
				hello @skip(if: $s)
				...F @log
				... @log { hello }
			}
			fragment F on Query @log { hello @log }`,
			want: Result{Depth: 1, Complexity: 3, Fields: 4, Directives: 7},
		},
		{
			name:  "a mutation is measured from the mutation type",
			query: `mutation { addPost(title: "x") { id title } }`,
			want:  Result{Depth: 2, Complexity: 3, Fields: 3},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, op := loadQuery(t, s, tt.query)
			got := analyze(s, testCostLookup, doc, op, tt.vars)
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestAnalyzeWithoutCosts(t *testing.T) {
	s := loadSchema(t, testSDL)
	doc, op := loadQuery(t, s, `{ authors(first: 50) { id posts { id } } }`)
	got := analyze(s, nil, doc, op, nil)
	want := Result{Depth: 3, Complexity: 1 + 1 + 1 + 1, Fields: 4}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestAnalyzeNilOperation(t *testing.T) {
	if got := Analyze(nil, nil, nil, nil); got != (Result{}) {
		t.Errorf("got %+v, want zero", got)
	}
}
