package exec_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/schema"
)

type esItem struct {
	A string `graphql:"a"`
	N int    `graphql:"n"`
}

// TestSelectionLeftEmptyBySkip holds every way an object is written to a
// selection whose every field a constant @skip or @include leaves out:
// the object is {} (the specification's CollectFields yields no field),
// never invalid JSON.
func TestSelectionLeftEmptyBySkip(t *testing.T) {
	b := schema.New()
	obj := schema.Object[esItem](b, "Item")
	schema.FieldFuncNoArgs(obj, "slow", func(_ context.Context, it *esItem) (string, error) { return "s" + it.A, nil })
	schema.QueryNoArgs(b, "item", func(context.Context) (*esItem, error) { return &esItem{A: "x", N: 1}, nil })
	schema.QueryNoArgs(b, "items", func(context.Context) ([]esItem, error) { return []esItem{{A: "x"}, {A: "y"}}, nil })
	schema.QueryNoArgs(b, "raw", func(context.Context) (schema.RawJSON, error) {
		return schema.RawJSON(`{"a":"r","n":2}`), nil
	}, schema.OfType("Item"))
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	e := exec.New(s, quietOpts())
	for _, tc := range []struct{ query, want string }{
		{`{ item { a @skip(if: true) } }`, `{"data":{"item":{}}}`},
		{`{ item { a @include(if: false) n @skip(if: true) } }`, `{"data":{"item":{}}}`},
		{`{ item { ... @skip(if: true) { a n } } }`, `{"data":{"item":{}}}`},
		{`{ item { ...F @include(if: false) } } fragment F on Item { a }`, `{"data":{"item":{}}}`},
		{`{ item { slow @skip(if: true) } }`, `{"data":{"item":{}}}`},
		{`{ items { a @skip(if: true) } }`, `{"data":{"items":[{},{}]}}`},
		{`{ items { slow @skip(if: true) } }`, `{"data":{"items":[{},{}]}}`},
		{`{ raw { a @skip(if: true) } }`, `{"data":{"raw":{}}}`},
		{`{ a: item { a @skip(if: true) } b: item { a } }`, `{"data":{"a":{},"b":{"a":"x"}}}`},
		{`query($s: Boolean!) { item { a @skip(if: $s) } }`, `{"data":{"item":{}}}`},
	} {
		got := runQuery(t, e, tc.query, map[string]any{"s": true})
		if !json.Valid([]byte(got)) {
			t.Errorf("%s: invalid JSON %s", tc.query, got)
			continue
		}
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.query, got, tc.want)
		}
	}
}
