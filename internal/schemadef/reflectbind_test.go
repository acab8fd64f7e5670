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

type (
	reflectPet interface{ pet() }
	reflectAny interface{ pet() }
	reflectCat struct{ Name string }
	reflectDog struct{ Name string }
)

func (*reflectCat) pet() {}
func (*reflectDog) pet() {}

// TestInterfaceOfAndUnionOf declares an interface and a union from
// reflect.Type values; their members and fields come from the document.
func TestInterfaceOfAndUnionOf(t *testing.T) {
	b := schema.New()
	b.SDL("p.graphql", "type Query {\n  pets: [Pet!]!\n  any: [Any!]!\n}\n\ninterface Pet {\n  name: String!\n}\n\ntype Cat implements Pet {\n  name: String!\n}\n\ntype Dog implements Pet {\n  name: String!\n}\n\nunion Any = Cat | Dog\n")
	petT := reflect.TypeFor[reflectPet]()
	b.InterfaceOf("Pet", petT)
	b.UnionOf("Any", reflect.TypeFor[reflectAny]())
	b.InterfaceOf("Pet", petT) // again: a no-op
	b.ObjectOf("Cat", reflect.TypeFor[reflectCat]())
	b.ObjectOf("Dog", reflect.TypeFor[reflectDog]())
	pets := []reflectPet{&reflectCat{Name: "Tom"}, &reflectDog{Name: "Rex"}}
	anys := []reflectAny{pets[0], pets[1]}
	b.FieldOf("Query", "pets", nil, reflect.TypeFor[[]reflectPet](), func(context.Context, unsafe.Pointer, unsafe.Pointer) (reflect.Value, error) {
		return reflect.ValueOf(pets), nil
	})
	b.FieldOf("Query", "any", nil, reflect.TypeFor[[]reflectAny](), func(context.Context, unsafe.Pointer, unsafe.Pointer) (reflect.Value, error) {
		return reflect.ValueOf(anys), nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	e := exec.NewModel(s, exec.Options{})
	doc, errs := e.Prepare(`{ pets { __typename name } any { ... on Dog { name } } }`)
	if errs != nil {
		t.Fatal(errs)
	}
	op, _ := doc.Operation("")
	got := string(e.Execute(context.Background(), op, nil, nil, nil))
	if want := `{"data":{"pets":[{"__typename":"Cat","name":"Tom"},{"__typename":"Dog","name":"Rex"}],"any":[{},{"name":"Rex"}]}}`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
