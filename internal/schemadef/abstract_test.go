package schemadef_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unsafe"

	schema "github.com/graftgql/graft/internal/schemadef"
)

type Shape interface{ area() float64 }

type Square struct{ Side float64 }
type Circle struct{ Radius float64 }
type Blob struct{ Size int }

func (s Square) area() float64  { return s.Side * s.Side }
func (c *Circle) area() float64 { return 3 * c.Radius * c.Radius }
func (b *Blob) area() float64   { return float64(b.Size) }

type Search interface{}

func shapeBuilder(opts ...schema.Option) *schema.Builder {
	b := schema.New()
	schema.Interface[Shape](b, "Shape", append([]schema.Option{schema.Description("Has an area.")}, opts...)...).
		Field("name", "String!", schema.Description("What it is.")).
		Field("scaled", "Float!", schema.Arg("by", "Float", schema.Default("2"), schema.Description("Factor.")))
	square := schema.Object[Square](b, "Square", schema.Implements("Shape"))
	schema.FieldFuncNoArgs(square, "name", func(context.Context, *Square) (string, error) { return "square", nil })
	schema.FieldFunc(square, "scaled", func(_ context.Context, s *Square, a struct{ By *float64 }) (float64, error) {
		return s.Side * *a.By, nil
	})
	circle := schema.Object[Circle](b, "Circle", schema.Implements("Shape"))
	schema.FieldFuncNoArgs(circle, "name", func(context.Context, *Circle) (string, error) { return "circle", nil })
	schema.FieldFunc(circle, "scaled", func(_ context.Context, c *Circle, a struct{ By *float64 }) (float64, error) {
		return c.Radius * *a.By, nil
	})
	schema.Object[Blob](b, "Blob")
	schema.Union[Search](b, "Found", []string{"Square", "Blob"}, schema.Description("A hit."))
	schema.QueryNoArgs(b, "shape", func(context.Context) (Shape, error) { return nil, nil })
	schema.QueryNoArgs(b, "found", func(context.Context) (Search, error) { return nil, nil })
	return b
}

func resolveAt(t *testing.T, out *schema.Output, v any) (*schema.Type, unsafe.Pointer, error) {
	t.Helper()
	if out.Kind != schema.OutAbstract || out.ResolveType == nil {
		t.Fatalf("Out = %+v, want an abstract output", out)
	}
	switch x := v.(type) {
	case Shape:
		return out.ResolveType(context.Background(), unsafe.Pointer(&x))
	case nil:
		var s Shape
		return out.ResolveType(context.Background(), unsafe.Pointer(&s))
	}
	t.Fatalf("unexpected %T", v)
	return nil, nil, nil
}

func TestInterfaceResolveType(t *testing.T) {
	s, err := shapeBuilder().Build()
	if err != nil {
		t.Fatal(err)
	}
	out := s.Query.Field("shape").Out
	var nilCircle *Circle
	tests := []struct {
		name     string
		value    any
		wantType string
		check    func(p unsafe.Pointer) bool
	}{
		{"struct value", Square{Side: 3}, "Square", func(p unsafe.Pointer) bool { return (*Square)(p).Side == 3 }},
		{"pointer to a struct with a value method", &Square{Side: 4}, "Square", func(p unsafe.Pointer) bool { return (*Square)(p).Side == 4 }},
		{"pointer", &Circle{Radius: 2}, "Circle", func(p unsafe.Pointer) bool { return (*Circle)(p).Radius == 2 }},
		{"nil interface", nil, "", nil},
		{"typed nil pointer", nilCircle, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			typ, p, err := resolveAt(t, out, tt.value)
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantType == "" {
				if typ != nil || p != nil {
					t.Errorf("got %v %v, want null", typ, p)
				}
				return
			}
			if typ == nil || typ.Name != tt.wantType || !tt.check(p) {
				t.Errorf("got type %v, want %s with the value", typ, tt.wantType)
			}
		})
	}
	if _, _, err := resolveAt(t, out, &Blob{Size: 1}); err == nil || !strings.Contains(err.Error(), "Blob") {
		t.Errorf("a value whose object type does not implement Shape: err = %v", err)
	}
	shape := s.Type("Shape")
	if got := names(shape.PossibleTypes); got != "Circle,Square" {
		t.Errorf("possible types = %s", got)
	}
	if got := names(s.Type("Square").Interfaces); got != "Shape" {
		t.Errorf("Square interfaces = %s", got)
	}
	if a := shape.Field("scaled").Args; len(a) != 1 || a[0].DefaultValue.String() != "2" || a[0].Description != "Factor." {
		t.Errorf("scaled args = %+v", a)
	}
	for _, want := range []string{"interface Shape {", "type Square implements Shape {", "union Found = Blob | Square", `"""A hit."""`} {
		if !strings.Contains(s.SDL(), want) {
			t.Errorf("SDL lacks %q:\n%s", want, s.SDL())
		}
	}
}

func names(ts []*schema.Type) string {
	var n []string
	for _, t := range ts {
		n = append(n, t.Name)
	}
	return strings.Join(n, ",")
}

func TestUnionResolveType(t *testing.T) {
	s, err := shapeBuilder().Build()
	if err != nil {
		t.Fatal(err)
	}
	out := s.Query.Field("found").Out
	for _, tt := range []struct {
		value Search
		want  string
	}{{&Blob{Size: 2}, "Blob"}, {Square{Side: 1}, "Square"}} {
		v := tt.value
		typ, p, err := out.ResolveType(context.Background(), unsafe.Pointer(&v))
		if err != nil || typ == nil || typ.Name != tt.want || p == nil {
			t.Errorf("%T resolved to %v, %v", tt.value, typ, err)
		}
	}
	var v Search = &Circle{}
	if _, _, err := out.ResolveType(context.Background(), unsafe.Pointer(&v)); err == nil {
		t.Errorf("a Circle is not a member of Found, want an error")
	}
	v = "text"
	if _, _, err := out.ResolveType(context.Background(), unsafe.Pointer(&v)); err == nil {
		t.Errorf("a string has no object type, want an error")
	}
}

func TestResolveTypeFunc(t *testing.T) {
	errNope := errors.New("nope")
	s, err := shapeBuilder(schema.ResolveTypeFunc(func(_ context.Context, v any) (string, error) {
		switch v.(type) {
		case *Blob:
			return "", errNope
		case *Circle:
			return "Square", nil
		}
		return "Circle", nil
	})).Build()
	if err != nil {
		t.Fatal(err)
	}
	out := s.Query.Field("shape").Out
	if _, _, err := resolveAt(t, out, &Blob{}); !errors.Is(err, errNope) {
		t.Errorf("the hook's error is returned, got %v", err)
	}
	if _, _, err := resolveAt(t, out, &Circle{}); err == nil {
		t.Errorf("a Circle named Square by the hook does not fit, want an error")
	}
	typ, p, err := resolveAt(t, out, Square{Side: 9})
	if err == nil {
		t.Errorf("a Square named Circle by the hook does not fit, want an error; got %v %v", typ, p)
	}
}

type Node interface{ node() }

type Resource interface{ Node }

type Page struct{ ID schema.ID }

func (*Page) node() {}

func nodeBuilder(pageImplements ...string) *schema.Builder {
	b := schema.New()
	schema.Interface[Node](b, "Node").Field("id", "ID!")
	schema.Interface[Resource](b, "Resource", schema.Implements("Node")).Field("id", "ID!")
	schema.Object[Page](b, "Page", schema.Implements(pageImplements...))
	schema.QueryNoArgs(b, "page", func(context.Context) (*Page, error) { return &Page{}, nil })
	return b
}

func TestInterfaceImplementsInterface(t *testing.T) {
	s, err := nodeBuilder("Resource", "Node").Build()
	if err != nil {
		t.Fatal(err)
	}
	if got := names(s.Type("Resource").Interfaces); got != "Node" {
		t.Errorf("Resource interfaces = %s", got)
	}
	if got := names(s.Type("Node").PossibleTypes); got != "Page" {
		t.Errorf("Node possible types = %s", got)
	}
	if !strings.Contains(s.SDL(), "interface Resource implements Node {") || !strings.Contains(s.SDL(), "type Page implements Resource & Node {") {
		t.Errorf("SDL:\n%s", s.SDL())
	}
	_, err = nodeBuilder("Resource").Build()
	if err == nil || !strings.Contains(err.Error(), "schema: Page: implements Resource, so it must also implement Node") {
		t.Errorf("a missing transitive interface: err = %v", err)
	}
}
