package limits

import "testing"

func TestUsesVariables(t *testing.T) {
	s := loadSchema(t, testSDL)
	tests := []struct {
		name  string
		query string
		want  bool
	}{
		{name: "no variables", query: `{ authors(first: 3) { id } }`, want: false},
		{name: "variable in a field argument", query: `query Q($n: Int) { authors(first: $n) { id } }`, want: true},
		{name: "variable in a nested field argument", query: `query Q($n: Int) { authors { posts(first: $n) { id } } }`, want: true},
		{name: "variable inside an input object literal", query: `query Q($n: Int) { characters(filter: {first: $n}) { name } }`, want: true},
		{name: "variable in a fragment", query: `query Q($n: Int) { ...F } fragment F on Query { authors(first: $n) { id } }`, want: true},
		{name: "variable in an inline fragment on a union member", query: `query Q($n: Int) { search(text: "x") { ... on Human { starships(first: $n) { id } } } }`, want: true},
		{name: "variable only in a directive", query: `query Q($s: Boolean!) { hello @skip(if: $s) }`, want: false},
		{name: "variable only in introspection", query: `query Q($t: String!) { __type(name: $t) { name } }`, want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, op := loadQuery(t, s, tt.query)
			if got := UsesVariables(doc, op); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
	if UsesVariables(nil, nil) {
		t.Error("nil operation uses variables")
	}
}
