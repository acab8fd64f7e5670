package chat

import (
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/graftgql/graft/examples/internal/sdldiff"
)

func TestSchemaIsExactlyTheIssueSchema(t *testing.T) {
	s, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	want := gqlparser.MustLoadSchema(&ast.Source{Name: "chat.graphql", Input: SDL})
	// graft's DateTime scalar carries a description and @specifiedBy; the
	// types, fields, arguments and defaults must match exactly.
	want.Types["DateTime"].Description = s.AST().Types["DateTime"].Description
	if diff := sdldiff.Diff(s.AST(), want); len(diff) > 0 {
		t.Errorf("schema differs:\n%s\nSDL:\n%s", strings.Join(diff, "\n"), s.SDL())
	}
}
