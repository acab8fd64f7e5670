// Package docs_test compiles the Go code of the documentation: every
// ```go block of README.md and of the pages in docs/ must be a complete
// file, and each is type-checked against this checkout of graft; a block
// fenced without a language whose text is Go fails, so that no fragment
// escapes the check.
package docs_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/testenv"
)

// block is one fenced code block of a Markdown file.
type block struct {
	file string // as named from the repository's root: docs/hooks.md
	line int    // of the opening fence, 1-based
	lang string // the first word of the info string, lowercased; "" for a bare fence
	code string
	// skip is the reason given by a `<!-- not compiled: reason -->` comment
	// on the line before the fence; "" when the block is checked.
	skip string
}

// where names a line of the block's text (1 is its first line) as
// file:line of the Markdown file.
func (b block) where(n int) string { return fmt.Sprintf("%s:%d", b.file, b.line+n) }

var (
	fenceOpen   = regexp.MustCompile("^\\s*(`{3,}|~{3,})\\s*([^`\\s]*)")
	paragraphs  = regexp.MustCompile(`\n\s*\n`)
	notCompiled = regexp.MustCompile(`^<!--\s*not compiled:\s*(\S.*?)\s*-->$`)
)

// fencedBlocks returns the fenced code blocks of the Markdown file path,
// named name in messages.
func fencedBlocks(t *testing.T, path, name string) []block {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []block
	lines := strings.Split(string(b), "\n")
	for i := 0; i < len(lines); i++ {
		m := fenceOpen.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		fence, start := m[1], i
		blk := block{file: name, line: start + 1, lang: strings.ToLower(m[2])}
		if blk.lang == "golang" {
			blk.lang = "go"
		}
		for j := start - 1; j >= 0; j-- {
			if s := strings.TrimSpace(lines[j]); s != "" {
				if c := notCompiled.FindStringSubmatch(s); c != nil {
					blk.skip = c[1]
				}
				break
			}
		}
		// The block ends at a fence of the same character, at least as long,
		// with nothing after it (or at the end of the file).
		for i++; i < len(lines); i++ {
			s := strings.TrimSpace(lines[i])
			if strings.HasPrefix(s, fence) && strings.Trim(s, fence[:1]) == "" {
				break
			}
		}
		blk.code = strings.Join(lines[start+1:min(i, len(lines))], "\n") + "\n"
		out = append(out, blk)
	}
	return out
}

// goFragment reports whether code is Go: it parses as a file, as
// declarations or as statements, or else every paragraph of it (lines
// between blank lines) does; and it declares or does something. GraphQL
// selections such as `{ hero { name } }` parse as Go statements too; such a
// block names its language (```graphql) and is not checked.
func goFragment(code string) bool {
	if ok, nonEmpty := parsesAsGo(code); ok {
		return nonEmpty
	}
	something := false
	for _, para := range paragraphs.Split(strings.TrimSpace(code), -1) {
		ok, nonEmpty := parsesAsGo(para)
		if !ok {
			return false
		}
		something = something || nonEmpty
	}
	return something
}

// parsesAsGo reports whether src parses as a Go file, as declarations or
// as the statements of a function body, and whether it holds more than
// comments.
func parsesAsGo(src string) (ok, nonEmpty bool) {
	fset := token.NewFileSet()
	for _, wrapped := range []string{src, "package p\n" + src} {
		if f, err := parser.ParseFile(fset, "", wrapped, parser.SkipObjectResolution); err == nil {
			return true, len(f.Decls) > 0
		}
	}
	f, err := parser.ParseFile(fset, "", "package p\nfunc _() {\n"+src+"\n}", parser.SkipObjectResolution)
	if err != nil {
		return false, false
	}
	return true, len(f.Decls[0].(*ast.FuncDecl).Body.List) > 0
}

var (
	packageLine = regexp.MustCompile(`(?m)^package (\w+)`)
	// vetPosition is a position in go vet's output: ./b03_hooks/main.go:12:5
	vetPosition = regexp.MustCompile(`(?:\./)?(b\d+_\w+)/(?:main|doc_test)\.go:(\d+)(?::\d+)?`)
)

// unlabelled are the fences that name no programming language.
var unlabelled = map[string]bool{"": true, "text": true, "txt": true, "plain": true, "plaintext": true}

// TestFragmentsNameTheirLanguage fails for a block fenced without a
// language (or as plain text) whose text is Go: Go in the documentation is a ```go block,
// a complete file that TestGoBlocksCompile type-checks.
func TestFragmentsNameTheirLanguage(t *testing.T) {
	for _, b := range docBlocks(t) {
		if unlabelled[b.lang] && b.skip == "" && goFragment(b.code) {
			t.Errorf("%s: this ```%s block is Go: fence it ```go and make it a complete file that compiles "+
				"(package main with its imports), or name its language in the fence (```graphql, ```sh, ```json)", b.where(0), b.lang)
		}
	}
}

// TestGoFragmentDetection pins what counts as Go for
// TestFragmentsNameTheirLanguage.
func TestGoFragmentDetection(t *testing.T) {
	for _, tc := range []struct {
		code string
		want bool
	}{
		{"b := schema.New()\nschema.Query(b, \"product\", productByID)\n", true},
		{"func TestAuthor(t *testing.T) {\n\tc := grafttest.New(router)\n\n\tc.Do(t, `{ nope }`, nil)\n}\n", true},
		{"graft.FieldMiddleware{Type: \"Author\",\n\tFunc: f}\n", true},
		{"type P struct {\n\tBio string\n}\n\nif p.Bio != \"\" {\n\tuse(p)\n}\n", true},
		{"// server.go\nfunc (r *q) Todos() {}\n\nhttp.Handle(\"/\", srv)\nlog.Fatal(http.ListenAndServe(\":8080\", nil))\n", true},
		{"package main\n\nfunc main() {}\n", true},
		{"go test -run Soak -soak 60s .\n", false},
		{"PORT=4001 GRAFT_EXAMPLE=federation-products go run ./cmd/graft &\n", false},
		{"{\"data\": {\"hero\": {\"name\": \"R2-D2\"}}}\n", false},
		{"level=INFO msg=\"graft: serving\" url=http://localhost:4000\n", false},
		{"HTTP/1.1 200 OK\nContent-Type: application/json\n", false},
		{"// only a comment\n", false},
		{"\n", false},
	} {
		if got := goFragment(tc.code); got != tc.want {
			t.Errorf("goFragment(%q) = %v, want %v", tc.code, got, tc.want)
		}
	}
}

// docBlocks returns the fenced blocks of README.md and of docs/*.md.
func docBlocks(t *testing.T) []block {
	t.Helper()
	pages, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := fencedBlocks(t, filepath.Join("..", "README.md"), "README.md")
	for _, p := range pages {
		blocks = append(blocks, fencedBlocks(t, p, "docs/"+p)...)
	}
	return blocks
}

// TestGoBlocksCompile type-checks (go vet) every ```go block of the
// documentation in a module of its own that requires this checkout of
// graft, each block as a package of its own (a test file when its package
// name ends in _test), and links the README's program.
func TestGoBlocksCompile(t *testing.T) {
	goBin := testenv.LookPath(t, "go")
	var blocks []block
	for _, b := range docBlocks(t) {
		switch {
		case b.lang != "go":
		case b.skip != "":
			t.Logf("%s: not compiled: %s", b.where(0), b.skip)
		default:
			blocks = append(blocks, b)
		}
	}
	if len(blocks) == 0 {
		t.Fatal("no ```go blocks in README.md and docs/")
	}
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	where := map[string]block{}
	for i, b := range blocks {
		m := packageLine.FindStringSubmatch(b.code)
		if m == nil {
			t.Errorf("%s: a ```go block must be a complete file (package clause and imports) that compiles", b.where(0))
			continue
		}
		name := fmt.Sprintf("b%02d_%s", i, strings.TrimSuffix(filepath.Base(b.file), ".md"))
		name = strings.NewReplacer("-", "_", ".", "_").Replace(name)
		where[name] = b
		file := "main.go"
		if strings.HasSuffix(m[1], "_test") {
			file = "doc_test.go"
		}
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name, file), []byte(b.code), 0o644); err != nil {
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
			// Name the Markdown file and line of each position.
			msg := vetPosition.ReplaceAllStringFunc(string(out), func(pos string) string {
				m := vetPosition.FindStringSubmatch(pos)
				b, ok := where[m[1]]
				n, err := strconv.Atoi(m[2])
				if !ok || err != nil {
					return pos
				}
				return b.where(n)
			})
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, msg)
		}
		return string(out)
	}
	run("mod", "tidy")
	// vet type-checks every block; the README's program is also linked.
	run("vet", "./...")
	linked := 0
	for name, b := range where {
		if b.file == "README.md" {
			run("build", "-o", filepath.Join(dir, "bin", name), "./"+name)
			linked++
		}
	}
	if linked == 0 {
		t.Error("README.md has no complete program to link")
	}
}
