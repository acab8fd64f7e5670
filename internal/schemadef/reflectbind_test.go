package schemadef_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"unsafe"

	"github.com/graftgql/graft/internal/exec"
	schema "github.com/graftgql/graft/internal/schemadef"
)

type reflectShelf struct {
	Name  string
	books []string
}

// TestFieldOf declares an object type and resolver fields from
// reflect.Type values, called through reflection, and runs a query.
func TestFieldOf(t *testing.T) {
	b := schema.New()
	b.SDL("s.graphql", "type Query {\n  shelf(name: String!): Shelf\n}\n\ntype Shelf {\n  name: String!\n  books(first: Int!): [String!]!\n}\n")
	shelfT := reflect.TypeFor[reflectShelf]()
	argT := reflect.StructOf([]reflect.StructField{{Name: "A0", Type: reflect.TypeFor[string](), Tag: `graphql:"name"`}})
	b.FieldOf("Query", "shelf", argT, reflect.PointerTo(shelfT), func(_ context.Context, _, args unsafe.Pointer) (reflect.Value, error) {
		name := reflect.NewAt(argT, args).Elem().Field(0).String()
		if name == "none" {
			return reflect.Zero(reflect.PointerTo(shelfT)), nil
		}
		if name == "bad" {
			return reflect.Value{}, errors.New("bad shelf")
		}
		return reflect.ValueOf(&reflectShelf{Name: name, books: []string{"a", "b", "c"}}), nil
	})
	b.ObjectOf("Shelf", shelfT)
	firstT := reflect.StructOf([]reflect.StructField{{Name: "A0", Type: reflect.TypeFor[int](), Tag: `graphql:"first"`}})
	b.FieldOf("Shelf", "books", firstT, reflect.TypeFor[[]string](), func(_ context.Context, parent, args unsafe.Pointer) (reflect.Value, error) {
		s := (*reflectShelf)(parent)
		n := int(reflect.NewAt(firstT, args).Elem().Field(0).Int())
		return reflect.ValueOf(s.books[:min(n, len(s.books))]), nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	e := exec.NewModel(s, exec.Options{})
	doc, errs := e.Prepare(`{ a: shelf(name: "sf") { name books(first: 2) } b: shelf(name: "none") { name } c: shelf(name: "bad") { name } }`)
	if errs != nil {
		t.Fatal(errs)
	}
	op, _ := doc.Operation("")
	got := string(e.Execute(context.Background(), op, nil, nil, nil))
	want := `{"errors":[{"message":"bad shelf","locations":[{"line":1,"column":81}],"path":["c"]}],"data":{"a":{"name":"sf","books":["a","b"]},"b":null,"c":null}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
