package schemadef_test

import (
	"context"
	"errors"
	"testing"
	"unsafe"

	schema "github.com/graftgql/graft/internal/schemadef"
)

func TestResolverResults(t *testing.T) {
	book := &Book{Title: "Dune"}
	errBoom := errors.New("boom")
	b := schema.New()
	schema.QueryNoArgs(b, "book", func(context.Context) (*Book, error) { return book, nil })
	schema.QueryNoArgs(b, "none", func(context.Context) (*Book, error) { return nil, nil })
	schema.QueryNoArgs(b, "fails", func(context.Context) (*Book, error) { return book, errBoom })
	schema.QueryNoArgs(b, "title", func(context.Context) (string, error) { return "T", nil })
	schema.QueryNoArgs(b, "books", func(context.Context) ([]Book, error) { return []Book{{Title: "A"}, {Title: "B"}}, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	f := s.Query.Field("book")
	if f.Out.Kind != schema.OutObject || f.Out.NonNull {
		t.Errorf("a pointer result is written as a nullable object, got %+v", f.Out)
	}
	p, err := f.Resolve(ctx, nil, nil)
	if err != nil || p != unsafe.Pointer(book) {
		t.Errorf("book resolved to %v, %v; want the pointer itself", p, err)
	}
	if allocs := testing.AllocsPerRun(100, func() { _, _ = f.Resolve(ctx, nil, nil) }); allocs != 0 {
		t.Errorf("a pointer result allocates %.1f times", allocs)
	}
	if p, err := s.Query.Field("none").Resolve(ctx, nil, nil); p != nil || err != nil {
		t.Errorf("a nil pointer result is null, got %v, %v", p, err)
	}
	if p, err := s.Query.Field("fails").Resolve(ctx, nil, nil); p != nil || !errors.Is(err, errBoom) {
		t.Errorf("an error result is (nil, err), got %v, %v", p, err)
	}

	title := s.Query.Field("title")
	p, err = title.Resolve(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := title.Out.WriteLeaf(nil, p); string(out) != `"T"` {
		t.Errorf("title wrote %s", out)
	}

	books := s.Query.Field("books")
	if books.Out.Kind != schema.OutList || books.Out.Elem.Kind != schema.OutObject || books.Out.ElemSize != unsafe.Sizeof(Book{}) {
		t.Fatalf("books Out = %+v", books.Out)
	}
	p, err = books.Resolve(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	list := *(*[]Book)(p)
	titleField := s.Type("Book").Field("title")
	second := unsafe.Add(unsafe.Pointer(unsafe.SliceData(list)), books.Out.ElemSize)
	if got, _ := titleField.Out.WriteLeaf(nil, unsafe.Add(second, titleField.Offset)); string(got) != `"B"` {
		t.Errorf("second book title = %s", got)
	}
}
