package schemadef_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unsafe"

	schema "github.com/graftgql/graft/internal/schemadef"
)

type batchBook struct {
	Title string
}

type batchArgs struct {
	Max int `default:"3"`
}

func TestBatchField(t *testing.T) {
	b := schema.New()
	book := schema.Object[batchBook](b, "Book")
	schema.BatchFieldFunc(book, "shout", func(_ context.Context, books []*batchBook, a batchArgs) ([]string, []error) {
		out := make([]string, len(books))
		for i, bk := range books {
			out[i] = strings.ToUpper(bk.Title)[:min(a.Max, len(bk.Title))]
		}
		return out, nil
	}, schema.Cost(4), schema.Description("Loud."))
	schema.BatchFieldFuncNoArgs(book, "twin", func(_ context.Context, books []*batchBook) ([]*batchBook, []error) {
		return make([]*batchBook, len(books)), nil
	})
	schema.QueryNoArgs(b, "books", func(context.Context) ([]batchBook, error) { return nil, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.SDL(), `shout(max: Int! = 3): String!`) || !strings.Contains(s.SDL(), "twin: Book\n") {
		t.Errorf("SDL:\n%s", s.SDL())
	}
	f := s.Type("Book").Field("shout")
	if f.Batch == nil || f.Resolve == nil || f.Cost == nil || f.Cost(nil, 1) != 5 || f.Description != "Loud." {
		t.Fatalf("shout = %+v", f)
	}
	books := []batchBook{{Title: "dune"}, {Title: "it"}}
	args := batchArgs{Max: 2}
	res, size, errs := f.Batch(context.Background(), []unsafe.Pointer{unsafe.Pointer(&books[0]), unsafe.Pointer(&books[1])}, unsafe.Pointer(&args))
	if errs != nil || size != unsafe.Sizeof("") {
		t.Fatalf("errs %v size %d", errs, size)
	}
	got := unsafe.Slice((*string)(res), 2)
	if got[0] != "DU" || got[1] != "IT" {
		t.Errorf("results %q", got)
	}
	// Resolve is the batch with one parent.
	p, err := f.Resolve(context.Background(), unsafe.Pointer(&books[0]), unsafe.Pointer(&args))
	if err != nil || *(*string)(p) != "DU" {
		t.Errorf("Resolve = %v, %v", p, err)
	}
	if tw := s.Type("Book").Field("twin"); tw.Out.Kind != schema.OutPtr {
		t.Errorf("a pointer result of a batch field stays a pointer node, got %v", tw.Out.Kind)
	}
}

func TestBatchFieldResultChecks(t *testing.T) {
	boom := errors.New("boom")
	b := schema.New()
	book := schema.Object[batchBook](b, "Book")
	schema.BatchFieldFuncNoArgs(book, "short", func(context.Context, []*batchBook) ([]string, []error) { return []string{"x"}, nil })
	schema.BatchFieldFuncNoArgs(book, "errs", func(context.Context, []*batchBook) ([]string, []error) { return nil, []error{nil, boom, nil} })
	schema.BatchFieldFuncNoArgs(book, "failAll", func(context.Context, []*batchBook) ([]string, []error) { return nil, []error{boom} })
	schema.QueryNoArgs(b, "books", func(context.Context) ([]batchBook, error) { return nil, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	parents := []unsafe.Pointer{unsafe.Pointer(&batchBook{}), unsafe.Pointer(&batchBook{})}
	for name, want := range map[string]string{
		"short":   "batch resolver returned 1 results for 2 parents",
		"errs":    "batch resolver returned 3 errors for 2 parents",
		"failAll": "boom",
	} {
		_, _, errs := s.Type("Book").Field(name).Batch(context.Background(), parents, nil)
		if len(errs) != 1 || errs[0].Error() != want {
			t.Errorf("%s: errs %v, want [%s]", name, errs, want)
		}
	}
}

func TestBatchFieldNilFunc(t *testing.T) {
	b := schema.New()
	book := schema.Object[batchBook](b, "Book")
	schema.BatchFieldFuncNoArgs[batchBook, string](book, "x", nil)
	schema.QueryNoArgs(b, "books", func(context.Context) ([]batchBook, error) { return nil, nil })
	if _, err := b.Build(); err == nil || !strings.Contains(err.Error(), "resolver function is nil") {
		t.Errorf("err = %v", err)
	}
}
