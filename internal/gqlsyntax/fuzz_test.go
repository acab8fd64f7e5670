package gqlsyntax_test

import (
	"testing"

	"github.com/graftgql/graft/internal/gqlsyntax"
)

// FuzzSyntax: whatever the document, the lexer, the rewording and the
// token helpers return without panicking, and every error has a location
// inside the document.
func FuzzSyntax(f *testing.F) {
	for _, s := range []string{"", "{ a }", "{ a(b: \"\\uD800\") }", "\"\"\"", "{ a(b: 1.e) }", "type T { a: Int }", "extend schema @d", "\r\n\r{ $", "\xff\xfe", "{ a(b: \"\\u{110000}\") }"} {
		f.Add(s, 1, 1)
	}
	f.Fuzz(func(t *testing.T, src string, line, column int) {
		check := func(e *gqlsyntax.Error) {
			if e != nil && (e.Line < 1 || e.Column < 1 || e.Message == "") {
				t.Fatalf("%q: bad error %+v", src, e)
			}
		}
		check(gqlsyntax.Check(src))
		check(gqlsyntax.EmptyDocument(src))
		e, _ := gqlsyntax.Reword(src, "Unexpected Name \"x\"", line, column)
		check(e)
		e, _ = gqlsyntax.Reword(src, "Expected Name, found <EOF>", line, column)
		check(e)
		for _, d := range gqlsyntax.NonExecutable(src) {
			check(&d)
		}
		for _, tok := range gqlsyntax.Tokens(src) {
			if tok.Start < 0 || tok.End > len(src) || tok.Start > tok.End {
				t.Fatalf("%q: token %+v out of range", src, tok)
			}
		}
		_ = gqlsyntax.Offset(src, line, column)
	})
}
