package bookstore

import (
	"os"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/graftgql/graft/examples/internal/sdldiff"
)

func TestSchemaMatchesSharedSDL(t *testing.T) {
	s, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../../../shared/examples/bookstore.graphql")
	if err != nil {
		t.Skipf("shared bookstore schema not found: %v", err)
	}
	wantSchema, gerr := gqlparser.LoadSchema(&ast.Source{Name: "bookstore.graphql", Input: string(want)})
	if gerr != nil {
		t.Fatal(gerr)
	}
	if diff := sdldiff.Diff(s.AST(), wantSchema); len(diff) > 0 {
		t.Errorf("schema differs from the shared SDL:\n%s\nSDL:\n%s", strings.Join(diff, "\n"), s.SDL())
	}
	// sdldiff leaves out directives: the scalars' @specifiedBy URLs must
	// match as well.
	for name, w := range wantSchema.Types {
		if w.Kind != ast.Scalar || w.BuiltIn {
			continue
		}
		g := s.AST().Types[name]
		if g == nil || specifiedBy(g) != specifiedBy(w) || specifiedBy(w) == "" {
			t.Errorf("scalar %s: @specifiedBy %q, want %q", name, specifiedBy(g), specifiedBy(w))
		}
	}
}

func specifiedBy(d *ast.Definition) string {
	if d == nil {
		return ""
	}
	if dir := d.Directives.ForName("specifiedBy"); dir != nil {
		if a := dir.Arguments.ForName("url"); a != nil {
			return a.Value.Raw
		}
	}
	return ""
}
