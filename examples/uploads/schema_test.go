package uploads

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
	want, err := os.ReadFile("../../../shared/examples/uploads.graphql")
	if err != nil {
		t.Skipf("shared uploads schema not found: %v", err)
	}
	wantSchema, gerr := gqlparser.LoadSchema(&ast.Source{Name: "uploads.graphql", Input: string(want)})
	if gerr != nil {
		t.Fatal(gerr)
	}
	if diff := sdldiff.Diff(s.AST(), wantSchema); len(diff) > 0 {
		t.Errorf("schema differs from the shared SDL:\n%s\nSDL:\n%s", strings.Join(diff, "\n"), s.SDL())
	}
}
