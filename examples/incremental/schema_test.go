package incremental

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
	want, err := os.ReadFile("../../../shared/examples/incremental.graphql")
	if err != nil {
		t.Skipf("shared incremental schema not found: %v", err)
	}
	wantSchema, gerr := gqlparser.LoadSchema(&ast.Source{Name: "incremental.graphql", Input: string(want)})
	if gerr != nil {
		t.Fatal(gerr)
	}
	if diff := sdldiff.Diff(s.AST(), wantSchema); len(diff) > 0 {
		t.Errorf("schema differs from the shared SDL:\n%s\nSDL:\n%s", strings.Join(diff, "\n"), s.SDL())
	}
	for _, name := range []string{"defer", "stream"} {
		g, w := s.AST().Directives[name], wantSchema.Directives[name]
		if g == nil || w == nil {
			t.Fatalf("@%s: got %v, want %v", name, g, w)
		}
		if got, want := directiveShape(g), directiveShape(w); got != want {
			t.Errorf("@%s = %s, want %s", name, got, want)
		}
	}
}

// directiveShape prints a directive's arguments, defaults and locations.
func directiveShape(d *ast.DirectiveDefinition) string {
	var b strings.Builder
	for _, a := range d.Arguments {
		b.WriteString(a.Name + ": " + a.Type.String())
		if a.DefaultValue != nil {
			b.WriteString(" = " + a.DefaultValue.String())
		}
		b.WriteString(", ")
	}
	for _, l := range d.Locations {
		b.WriteString(string(l) + " ")
	}
	return b.String()
}
