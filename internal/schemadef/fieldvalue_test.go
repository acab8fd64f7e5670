package schemadef_test

import (
	"context"
	"testing"
	"unsafe"

	"github.com/graftgql/graft/internal/schemadef"
)

type fvName string

type fvThing struct {
	Name fvName
	Nick *string
}

func TestFieldValueRoundTrip(t *testing.T) {
	b := schemadef.New()
	thing := schemadef.Object[fvThing](b, "Thing")
	schemadef.FieldFuncNoArgs(thing, "self", func(_ context.Context, d *fvThing) (*fvThing, error) { return d, nil })
	schemadef.FieldFuncNoArgs(thing, "count", func(_ context.Context, d *fvThing) (int, error) { return 3, nil })
	schemadef.QueryNoArgs(b, "thing", func(context.Context) (fvThing, error) { return fvThing{}, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	typ := s.Type("Thing")
	nick := "annie"
	obj := &fvThing{Name: "ann", Nick: &nick}

	name := typ.Field("name")
	p := unsafe.Add(unsafe.Pointer(obj), name.Offset)
	if v := name.Value(p); v != fvName("ann") {
		t.Fatalf("name value %#v", v)
	}
	for _, v := range []any{fvName("ANN"), "ANN"} { // the type itself, or a string
		q, err := name.FromValue(v)
		if err != nil || *(*fvName)(q) != "ANN" {
			t.Fatalf("FromValue(%#v) = %v, %v", v, q, err)
		}
	}
	if _, err := name.FromValue(42); err == nil {
		t.Fatal("an int for a string field was accepted")
	}
	if q, err := name.FromValue(nil); q != nil || err != nil {
		t.Fatalf("FromValue(nil) = %v, %v", q, err)
	}

	nickF := typ.Field("nick")
	if v := nickF.Value(unsafe.Add(unsafe.Pointer(obj), nickF.Offset)); v != &nick {
		t.Fatalf("nick value %#v", v)
	}

	self := typ.Field("self") // a resolver returning a pointer: the pointer is the value
	if v := self.Value(unsafe.Pointer(obj)); v != obj {
		t.Fatalf("self value %#v", v)
	}
	if q, err := self.FromValue(obj); q != unsafe.Pointer(obj) || err != nil {
		t.Fatalf("FromValue(obj) = %v, %v", q, err)
	}
	if _, err := self.FromValue(*obj); err == nil {
		t.Fatal("a struct for a pointer field was accepted")
	}

	count := typ.Field("count")
	if _, err := count.FromValue(int64(3)); err == nil {
		t.Fatal("an int64 for an int field was accepted")
	}
	if q, err := count.FromValue(7); err != nil || *(*int)(q) != 7 {
		t.Fatalf("FromValue(7) = %v, %v", q, err)
	}
}
