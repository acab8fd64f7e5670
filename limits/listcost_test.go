package limits

import (
	"math"
	"testing"

	"github.com/graftgql/graft/schema"
)

func TestListCost(t *testing.T) {
	cost := ListCost("first", 100)
	tests := []struct {
		name     string
		args     map[string]any
		children int
		want     int
	}{
		{name: "the argument multiplies the children", args: map[string]any{"first": int64(50)}, children: 4, want: 1 + 50*4},
		{name: "an int argument", args: map[string]any{"first": 3}, children: 2, want: 1 + 3*2},
		{name: "an integral float argument", args: map[string]any{"first": float64(3)}, children: 2, want: 1 + 3*2},
		{name: "clamped to the maximum", args: map[string]any{"first": int64(1) << 62}, children: 4, want: 1 + 100*4},
		{name: "a negative argument costs no items", args: map[string]any{"first": int64(-5)}, children: 4, want: 1},
		{name: "a missing argument counts as the maximum", args: map[string]any{}, children: 2, want: 1 + 100*2},
		{name: "a null argument counts as the maximum", args: map[string]any{"first": nil}, children: 2, want: 1 + 100*2},
		{name: "a string argument counts as the maximum", args: map[string]any{"first": "7"}, children: 2, want: 1 + 100*2},
		{name: "no children", args: map[string]any{"first": int64(50)}, children: 0, want: 1},
		{name: "the product saturates", args: map[string]any{"first": int64(100)}, children: math.MaxInt / 50, want: math.MaxInt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cost(tt.args, tt.children); got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
}

func TestListCostInAnalysis(t *testing.T) {
	s := loadSchema(t, testSDL)
	lookup := func(typeName, fieldName string) schema.CostFunc {
		if typeName == "Query" && fieldName == "authors" {
			return ListCost("first", 100)
		}
		return nil
	}
	doc, op := loadQuery(t, s, `query Q($n: Int) { authors(first: $n) { id name } }`)
	got := analyze(s, lookup, doc, op, map[string]any{"n": float64(1e18)})
	if got.Complexity != 1+100*2 {
		t.Errorf("complexity %d, want %d", got.Complexity, 1+100*2)
	}
}
