package gqlsyntax_test

import (
	"testing"

	"github.com/graftgql/graft/internal/gqlsyntax"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
)

// syntaxError is what the engine does: the parser's error reworded, the
// lexer's check of a parsed document, the empty-document error.
func syntaxError(src string) *gqlsyntax.Error {
	doc, err := parser.ParseQuery(&ast.Source{Input: src})
	if err != nil {
		ge := err.(*gqlerror.Error)
		e, ok := gqlsyntax.Reword(src, ge.Message, ge.Locations[0].Line, ge.Locations[0].Column)
		if !ok {
			return &gqlsyntax.Error{Message: "not reworded: " + ge.Message}
		}
		return e
	}
	if e := gqlsyntax.Check(src); e != nil {
		return e
	}
	if len(doc.Operations) == 0 && len(doc.Fragments) == 0 {
		return gqlsyntax.EmptyDocument(src)
	}
	return nil
}

// TestGraphQLJSSyntaxErrors holds the message and location graphql-js
// 16.15's parse gives each document.
func TestGraphQLJSSyntaxErrors(t *testing.T) {
	tests := []struct {
		src, msg     string
		line, column int
	}{
		{"", "Syntax Error: Unexpected <EOF>.", 1, 1},
		{"   ", "Syntax Error: Unexpected <EOF>.", 1, 4},
		{"# only a comment", "Syntax Error: Unexpected <EOF>.", 1, 17},
		{"{", "Syntax Error: Expected Name, found <EOF>.", 1, 2},
		{"{ hero", "Syntax Error: Expected Name, found <EOF>.", 1, 7},
		{"{ hero { name }", "Syntax Error: Expected Name, found <EOF>.", 1, 16},
		{"{ hero(episode: ) { name } }", "Syntax Error: Unexpected \")\".", 1, 17},
		{"query { hero { name } } }", "Syntax Error: Unexpected \"}\".", 1, 25},
		{"{ hero { name } } extra", "Syntax Error: Unexpected Name \"extra\".", 1, 19},
		{"query Q($a: ) { hero { name } }", "Syntax Error: Expected Name, found \")\".", 1, 13},
		{"{ a: }", "Syntax Error: Expected Name, found \"}\".", 1, 6},
		{"{ \"str\" }", "Syntax Error: Expected Name, found String \"str\".", 1, 3},
		{"{ hero(episode: \"\\uD800\") { name } }", "Syntax Error: Invalid Unicode escape sequence: \"\\uD800\".", 1, 18},
		{"{ hero(episode: \"\\uDC00\") { name } }", "Syntax Error: Invalid Unicode escape sequence: \"\\uDC00\".", 1, 18},
		{"{ hero(episode: \"\\u{110000}\") { name } }", "Syntax Error: Invalid Unicode escape sequence: \"\\u{110000}\".", 1, 18},
		{"{ hero(episode: \"unterminated) { name } }", "Syntax Error: Unterminated string.", 1, 42},
		{"{ hero @ { name } }", "Syntax Error: Expected Name, found \"{\".", 1, 10},
		{"{ ...  }", "Syntax Error: Expected \"{\", found \"}\".", 1, 8},
		{"fragment on Character { name }", "Syntax Error: Unexpected Name \"on\".", 1, 10},
		{"{ hero { ... on } }", "Syntax Error: Expected Name, found \"}\".", 1, 17},
		{"{ 1 }", "Syntax Error: Expected Name, found Int \"1\".", 1, 3},
		{"{ hero(episode: 1.) { name } }", "Syntax Error: Invalid number, expected digit but got: \")\".", 1, 19},
		{"{ hero(episode: 0x1) { name } }", "Syntax Error: Invalid number, expected digit but got: \"x\".", 1, 18},
		{"query Q { hero }}", "Syntax Error: Unexpected \"}\".", 1, 17},
		{"\u0007", "Syntax Error: Unexpected character: U+0007.", 1, 1},
		{"{ hero(episode: $) { name } }", "Syntax Error: Expected Name, found \")\".", 1, 18},
		{"{ hero { name } } query", "Syntax Error: Expected \"{\", found <EOF>.", 1, 24},
		{"subscription", "Syntax Error: Expected \"{\", found <EOF>.", 1, 13},
		{"{ hero(episode: \"\\x\") { name } }", "Syntax Error: Invalid character escape sequence: \"\\x\".", 1, 18},
		{"{ hero(episode: \"\"\"a) { name } }", "Syntax Error: Unterminated string.", 1, 33},
		{"mutation", "Syntax Error: Expected \"{\", found <EOF>.", 1, 9},
		{"{ hero(episode: [1, ) { name } }", "Syntax Error: Unexpected \")\".", 1, 21},
		{"{ hero(episode: {a: }) { name } }", "Syntax Error: Unexpected \"}\".", 1, 21},
		{"{ hero { name }; }", "Syntax Error: Unexpected character: \";\".", 1, 16},
		{"{ hero(episode: 00) { name } }", "Syntax Error: Invalid number, unexpected digit after 0: \"0\".", 1, 18},
		{"{ hero(episode: 1e) { name } }", "Syntax Error: Invalid number, expected digit but got: \")\".", 1, 19},
		{"{ hero(episode: .5) { name } }", "Syntax Error: Unexpected character: \".\".", 1, 17},
		{"query Q($a: Int = $b) { hero { name } }", "Syntax Error: Unexpected variable \"$b\" in constant value.", 1, 19},
		{"{ hero(episode: \"a\nb\") { name } }", "Syntax Error: Unterminated string.", 1, 19},
		{"{ a }\r\n\r\n  $", `Syntax Error: Unexpected "$".`, 3, 3},
		{"{ a(s: \"\"\"\n   x\n  \"\"\" b: 1.5e) }", `Syntax Error: Invalid number, expected digit but got: ")".`, 3, 14},
		{"{ a(s: \"\\uD83D\\uDE00\") }\n\"\\uDE00\"", `Syntax Error: Invalid Unicode escape sequence: "\uDE00".`, 2, 2},
		{"{ a(s: \"\u00e9\u00e9\") @ }", `Syntax Error: Expected Name, found "}".`, 1, 16},
		{"{ 'a' }", `Syntax Error: Unexpected single quote character ('), did you mean to use a double quote (")?`, 1, 3},
		{"{ a(s: \"\"\"x\"\"\") b(s: \"\"\"y) }", `Syntax Error: Unterminated string.`, 1, 29},
	}
	for _, tt := range tests {
		got := syntaxError(tt.src)
		if got == nil || got.Message != tt.msg || got.Line != tt.line || got.Column != tt.column {
			t.Errorf("%q: got %+v, want %s at %d:%d", tt.src, got, tt.msg, tt.line, tt.column)
		}
	}
	for _, ok := range []string{"{ a }", `{ a(s: "\uD83D\uDE00 \u{1F600} \" \\ \/ \b \f \n \r \t") }`, "\uFEFF{ a }", "query Q($a: Int = 1) { a(b: [1, -2.5e3, \"\"\"x\"\"\"]) }"} {
		if got := syntaxError(ok); got != nil {
			t.Errorf("%q: got %+v, want no error", ok, got)
		}
	}
}
