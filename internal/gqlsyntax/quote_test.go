package gqlsyntax_test

import (
	"testing"

	"github.com/graftgql/graft/internal/gqlsyntax"
)

// TestQuote holds Quote to graphql-js 16's printString.
func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"":                   `""`,
		"plain":              `"plain"`,
		`say "hi" \ there`:   `"say \"hi\" \\ there"`,
		"a\nb\tc\rd\be\ff":   `"a\nb\tc\rd\be\ff"`,
		"\x00\x0b\x1f\x7f":   `"\u0000\u000B\u001F\u007F"`,
		"\u0080\u009f\u00a0": "\"\\u0080\\u009F\u00a0\"",
		"naïve ✓ 🙂":          `"naïve ✓ 🙂"`,
	} {
		if got := gqlsyntax.Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}
