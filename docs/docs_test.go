// Package docs_test compiles the Go code of the documentation: every
// ```go block of README.md and of the pages in docs/ must be a complete
// file, and each is built and linked against this checkout of graft.
package docs_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/testenv"
)

// block is one ```go block of a Markdown file.
type block struct {
	file string
	line int
	code string
}

// goBlocks returns the ```go blocks of the Markdown file path.
func goBlocks(t *testing.T, path string) []block {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []block
	lines := strings.Split(string(b), "\n")
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```go" {
			continue
		}
		start := i + 1
		for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "```"); i++ {
		}
		out = append(out, block{path, start, strings.Join(lines[start:i], "\n") + "\n"})
	}
	return out
}

var packageLine = regexp.MustCompile(`(?m)^package (\w+)`)

// TestGoBlocksCompile type-checks (go vet) every ```go block of the
// documentation in a module of its own that requires this checkout of
// graft, each block as a package of its own, and links the README's
// program.
func TestGoBlocksCompile(t *testing.T) {
	goBin := testenv.LookPath(t, "go")
	files, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{filepath.Join("..", "README.md")}, files...)
	var blocks []block
	for _, f := range files {
		blocks = append(blocks, goBlocks(t, f)...)
	}
	if len(blocks) == 0 {
		t.Fatalf("no ```go blocks in %v", files)
	}
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	where := map[string]block{}
	for i, b := range blocks {
		if !packageLine.MatchString(b.code) {
			t.Errorf("%s:%d: a ```go block must be a complete file (package clause and imports); fence a fragment with a bare ``` instead", b.file, b.line)
			continue
		}
		name := fmt.Sprintf("b%02d_%s", i, strings.TrimSuffix(filepath.Base(b.file), ".md"))
		name = strings.NewReplacer("-", "_", ".", "_").Replace(name)
		where[name] = b
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name, "main.go"), []byte(b.code), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gomod := "module docscheck\n\ngo 1.26\n\nrequire github.com/graftgql/graft v0.0.0\n\nreplace github.com/graftgql/graft => " + repo + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		cmd := exec.Command(goBin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		if err != nil {
			// Name the Markdown file and line of each failing block.
			msg := string(out)
			for name, b := range where {
				msg = strings.ReplaceAll(msg, "./"+name+"/main.go", fmt.Sprintf("%s (block at line %d)", b.file, b.line))
				msg = strings.ReplaceAll(msg, name+"/main.go", fmt.Sprintf("%s (block at line %d)", b.file, b.line))
			}
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, msg)
		}
		return string(out)
	}
	run("mod", "tidy")
	// vet type-checks every block; the README's program is also linked.
	run("vet", "./...")
	linked := 0
	for name, b := range where {
		if filepath.Base(b.file) == "README.md" && strings.HasPrefix(filepath.Dir(b.file), "..") {
			run("build", "-o", filepath.Join(dir, "bin", name), "./"+name)
			linked++
		}
	}
	if linked == 0 {
		t.Error("README.md has no complete program to link")
	}
}
