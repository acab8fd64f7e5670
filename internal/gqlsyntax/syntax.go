package gqlsyntax

import (
	"strings"
	"unicode/utf8"
)

// Check lexes src with graphql-js's rules and returns its first lexical
// error, or nil. The parser graft uses accepts some strings graphql-js
// refuses (a lone surrogate escape such as "\uD800"), so a document it
// parses is checked too.
func Check(src string) *Error {
	l := &lexer{src: src}
	for {
		t, err := l.next()
		if err != nil {
			return locate(src, "Syntax Error: "+err.msg, err.pos)
		}
		if t.kind == kindEOF {
			return nil
		}
	}
}

// EmptyDocument is the error graphql-js gives a document with no
// definition: "Unexpected <EOF>." where the document ends.
func EmptyDocument(src string) *Error {
	return locate(src, "Syntax Error: Unexpected <EOF>.", len(src))
}

// Reword returns the graphql-js form of the parse error that gqlparser
// reported as msg at line and column (1-based, column in runes) of src:
// the lexer's own reason when the parser stopped at an invalid token, and
// otherwise "Expected ..., found ..." or "Unexpected ..." with graphql-js's
// token descriptions and the token's start as location. ok is false for
// messages it does not know (such as a token or nesting limit), which
// should be kept.
func Reword(src, msg string, line, column int) (e *Error, ok bool) {
	toks, lexErr := lexAll(src)
	off := offsetOf(src, line, column)
	var at *token
	depth := 0
	for i := range toks {
		if toks[i].end > off || toks[i].kind == kindEOF {
			at = &toks[i]
			if at.kind == "$" && depth > 0 && i+1 < len(toks) && toks[i+1].kind == kindName && strings.HasPrefix(msg, "Unexpected ") {
				// Inside brackets, gqlparser refuses a variable only
				// where the value must be constant (a default value).
				return locate(src, `Syntax Error: Unexpected variable "$`+toks[i+1].value+`" in constant value.`, at.start), true
			}
			break
		}
		switch toks[i].kind {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		}
	}
	if lexErr != nil && (at == nil || lexErr.pos <= at.end) {
		return locate(src, "Syntax Error: "+lexErr.msg, lexErr.pos), true
	}
	if at == nil {
		return nil, false
	}
	switch {
	case strings.HasPrefix(msg, "Expected "):
		want, _, found := strings.Cut(strings.TrimPrefix(msg, "Expected "), ", found ")
		if !found {
			return nil, false
		}
		if !strings.HasPrefix(want, `"`) {
			want = kindDesc(kind(want))
		}
		return locate(src, "Syntax Error: Expected "+want+", found "+at.desc()+".", at.start), true
	case strings.HasPrefix(msg, "Unexpected "), strings.HasPrefix(msg, "expected at least one definition"):
		return locate(src, "Syntax Error: Unexpected "+at.desc()+".", at.start), true
	}
	return nil, false
}

// offsetOf converts gqlparser's line and column (in runes) to a byte
// offset of src. gqlparser starts the line after \r\n at the \n, which
// it counts as the line's first column.
func offsetOf(src string, line, column int) int {
	off, lineStart := 0, 0
	for l := 1; l < line && off < len(src); {
		c := src[off]
		off++
		switch c {
		case '\n':
			l++
			lineStart = off
		case '\r':
			l++
			lineStart = off
			if off < len(src) && src[off] == '\n' {
				off++
			}
		}
	}
	off = lineStart
	for c := 1; c < column && off < len(src); c++ {
		_, size := utf8.DecodeRuneInString(src[off:])
		off += size
	}
	return off
}

// locate builds the error at byte offset pos of src, with graphql-js's
// line (after \r\n, \n or \r) and column (in UTF-16 code units).
func locate(src, msg string, pos int) *Error {
	line, lineStart := 1, 0
	for i := 0; i < pos && i < len(src); i++ {
		switch src[i] {
		case '\n':
			line, lineStart = line+1, i+1
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			line, lineStart = line+1, i+1
		}
	}
	column := 1
	for _, r := range src[lineStart:min(pos, len(src))] {
		if r >= 0x10000 {
			column += 2
		} else {
			column++
		}
	}
	return &Error{Message: msg, Line: line, Column: column}
}
