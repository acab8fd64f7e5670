package schema_test

import (
	"context"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/schema"
)

type nnBook struct {
	Title string `json:"title"`
}

// TestNonNullItems: the option makes list items non-null at every level,
// and a nil item nulls the list with a non-null error.
func TestNonNullItems(t *testing.T) {
	b := schema.New()
	schema.Object[nnBook](b, "Book")
	schema.QueryNoArgs(b, "books", func(context.Context) ([]*nnBook, error) {
		return []*nnBook{{Title: "a"}}, nil
	}, schema.NonNullItems())
	schema.QueryNoArgs(b, "shelves", func(context.Context) ([][]*nnBook, error) {
		return [][]*nnBook{{{Title: "b"}}}, nil
	}, schema.NonNullItems())
	schema.QueryNoArgs(b, "holes", func(context.Context) (*[]*nnBook, error) {
		return &[]*nnBook{nil}, nil
	}, schema.NonNullItems())
	schema.QueryNoArgs(b, "plain", func(context.Context) ([]*nnBook, error) { return nil, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	sdl := s.SDL()
	for _, w := range []string{"books: [Book!]!", "shelves: [[Book!]!]!", "holes: [Book!]", "plain: [Book]!"} {
		if !strings.Contains(sdl, w) {
			t.Errorf("SDL lacks %q:\n%s", w, sdl)
		}
	}
	e := exec.New(s, exec.Options{})
	doc, errs := e.Prepare(`{ books { title } shelves { title } holes { title } }`)
	if errs != nil {
		t.Fatal(errs)
	}
	op, _ := doc.Operation("")
	got := string(e.Execute(context.Background(), op, nil, nil, nil))
	want := `{"errors":[{"message":"Cannot return null for non-nullable field Query.holes.","locations":[{"line":1,"column":37}],"path":["holes",0]}],"data":{"books":[{"title":"a"}],"shelves":[[{"title":"b"}]],"holes":null}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for _, bad := range []func(b *schema.Builder){
		func(b *schema.Builder) {
			schema.QueryNoArgs(b, "x", func(context.Context) (*nnBook, error) { return nil, nil }, schema.NonNullItems())
		},
		func(b *schema.Builder) {
			schema.QueryNoArgs(b, "x", func(context.Context) ([]*nnBook, error) { return nil, nil }, schema.NonNullItems(), schema.OfType("[Book]"))
		},
	} {
		b := schema.New()
		schema.Object[nnBook](b, "Book")
		bad(b)
		if _, err := b.Build(); err == nil || !strings.Contains(err.Error(), "Query.x") {
			t.Errorf("Build: %v, want an error naming Query.x", err)
		}
	}
}
