package sdldiff

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// Served is a schema as graft serves it: its AST and its printed SDL.
type Served interface {
	AST() *ast.Schema
	SDL() string
}

// MatchShared fails t unless s matches the shared schema file at path
// (relative to the test's package), and returns that schema for checks
// of its own. It skips t when the file is absent (a checkout without the
// shared examples beside it).
func MatchShared(t *testing.T, s Served, path string) *ast.Schema {
	t.Helper()
	want, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("shared schema %s not found: %v", path, err)
	}
	wantSchema, gerr := gqlparser.LoadSchema(&ast.Source{Name: filepath.Base(path), Input: string(want)})
	if gerr != nil {
		t.Fatal(gerr)
	}
	if diff := Diff(s.AST(), wantSchema); len(diff) > 0 {
		t.Errorf("schema differs from %s:\n%s\nSDL:\n%s", path, strings.Join(diff, "\n"), s.SDL())
	}
	return wantSchema
}
