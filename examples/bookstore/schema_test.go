package bookstore

import (
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/graftgql/graft/examples/internal/sdldiff"
)

func TestSchemaMatchesSharedSDL(t *testing.T) {
	s, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	wantSchema := sdldiff.MatchShared(t, s, "../../../shared/examples/bookstore.graphql")
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
