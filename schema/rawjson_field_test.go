package schema_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/schema"
)

// TestRawJSONStructField: a struct holding RawJSON decodes from and
// encodes to JSON like json.RawMessage, names no internal type, and the
// decoded value serves a field.
func TestRawJSONStructField(t *testing.T) {
	type row struct {
		ID   string         `json:"id"`
		Data schema.RawJSON `json:"data"`
	}
	var r row
	if err := json.Unmarshal([]byte(`{"id":"1","data":{"title":"Go","tags":["a","b"]}}`), &r); err != nil {
		t.Fatal(err)
	}
	if string(r.Data) != `{"title":"Go","tags":["a","b"]}` {
		t.Fatalf("Data = %s", r.Data)
	}
	out, err := json.Marshal(r)
	if err != nil || string(out) != `{"id":"1","data":{"title":"Go","tags":["a","b"]}}` {
		t.Fatalf("Marshal = %s, %v", out, err)
	}
	if s := fmt.Sprintf("%T", r.Data); s != "json.RawMessage" {
		t.Errorf("the type prints as %s", s)
	}
	type book struct {
		Title string   `json:"title"`
		Tags  []string `json:"tags"`
	}
	b := schema.New()
	schema.Object[book](b, "Book")
	schema.QueryNoArgs(b, "book", func(context.Context) (schema.RawJSON, error) { return r.Data, nil }, schema.OfType("Book"))
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	e := exec.New(s, exec.Options{})
	doc, errs := e.Prepare(`{ book { title tags } }`)
	if errs != nil {
		t.Fatal(errs)
	}
	op, _ := doc.Operation("")
	if got := string(e.Execute(context.Background(), op, nil, nil, nil)); got != `{"data":{"book":{"title":"Go","tags":["a","b"]}}}` {
		t.Errorf("got %s", got)
	}
}
