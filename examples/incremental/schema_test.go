package incremental

import (
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/graftgql/graft/examples/internal/sdldiff"
)

func TestSchemaMatchesSharedSDL(t *testing.T) {
	s, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	wantSchema := sdldiff.MatchShared(t, s, "../../../shared/examples/incremental.graphql")
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
