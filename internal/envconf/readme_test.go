package envconf

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/configuration.md's table from the declaration")

const (
	beginMarker = "<!-- envconf:begin -->\n"
	endMarker   = "<!-- envconf:end -->"
)

// TestREADMETable keeps the configuration table of docs/configuration.md
// equal to the declaration. Run `go test ./internal/envconf -update` after
// changing it.
func TestREADMETable(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "configuration.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	start := strings.Index(readme, beginMarker)
	end := strings.Index(readme, endMarker)
	if start < 0 || end < start {
		t.Fatalf("docs/configuration.md lacks the markers %q and %q around the configuration table", beginMarker, endMarker)
	}
	start += len(beginMarker)
	want := Markdown()
	if got := readme[start:end]; got != want {
		if *update {
			if err := os.WriteFile(path, []byte(readme[:start]+want+readme[end:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("docs/configuration.md's table differs from internal/envconf/vars.go; run go test ./internal/envconf -update\ngot:\n%s\nwant:\n%s", got, want)
	}
}

// TestDeclarationIsComplete checks every declared variable carries a
// default and a description, and that no name is declared twice.
func TestDeclarationIsComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Sections() {
		for _, v := range s.Vars {
			if v.Default == "" || v.Description == "" {
				t.Errorf("%s: declare a default and a help text", v.Name)
			}
			if seen[v.Name] {
				t.Errorf("%s is declared twice", v.Name)
			}
			seen[v.Name] = true
		}
	}
}
