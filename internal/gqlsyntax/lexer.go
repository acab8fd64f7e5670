// Package gqlsyntax gives the syntax errors of GraphQL documents in the
// words and at the locations graphql-js 16, the reference implementation,
// uses. The parser graft uses (gqlparser) finds the same errors but words
// them differently, loses the lexer's reason ("Unexpected <Invalid>"), and
// accepts a few strings graphql-js refuses (lone surrogate escapes such as
// "\uD800"). This package lexes the document again with the reference
// rules and rewords the parser's error from the token it points at.
package gqlsyntax

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// kind is the kind of a token, named as graphql-js names it in messages.
type kind string

const (
	kindEOF         kind = "<EOF>"
	kindName        kind = "Name"
	kindInt         kind = "Int"
	kindFloat       kind = "Float"
	kindString      kind = "String"
	kindBlockString kind = "BlockString"
)

// token is one lexical token: its kind (a punctuator is its own text),
// its value for names, numbers and strings, and its byte offsets.
type token struct {
	kind       kind
	value      string
	start, end int
}

// desc describes the token as graphql-js's getTokenDesc does.
func (t token) desc() string {
	d := kindDesc(t.kind)
	if t.kind == kindName || t.kind == kindInt || t.kind == kindFloat || t.kind == kindString || t.kind == kindBlockString {
		d += ` "` + t.value + `"`
	}
	return d
}

// kindDesc quotes punctuators, as graphql-js's getTokenKindDesc does.
func kindDesc(k kind) string {
	switch k {
	case kindEOF, kindName, kindInt, kindFloat, kindString, kindBlockString:
		return string(k)
	}
	return `"` + string(k) + `"`
}

// Error is a syntax error: its message, "Syntax Error: " included, and
// its location as graphql-js computes it (1-based line, and column in
// UTF-16 code units).
type Error struct {
	Message      string
	Line, Column int
}

// lexError is an error found by the lexer at byte offset pos.
type lexError struct {
	msg string
	pos int
}

// lexer reads the tokens of src.
type lexer struct {
	src string
	pos int
}

// lexAll returns the tokens of src up to the first lexical error, and
// that error. The last token is <EOF> when there is no error.
func lexAll(src string) ([]token, *lexError) {
	l := &lexer{src: src}
	var toks []token
	for {
		t, err := l.next()
		if err != nil {
			return toks, err
		}
		toks = append(toks, t)
		if t.kind == kindEOF {
			return toks, nil
		}
	}
}

func (l *lexer) errorf(pos int, format string, args ...any) *lexError {
	return &lexError{msg: fmt.Sprintf(format, args...), pos: pos}
}

// printCodePointAt describes the character at byte offset pos, as
// graphql-js's printCodePointAt does.
func (l *lexer) printCodePointAt(pos int) string {
	if pos >= len(l.src) {
		return string(kindEOF)
	}
	r, _ := utf8.DecodeRuneInString(l.src[pos:])
	if r >= 0x20 && r <= 0x7e {
		if r == '"' {
			return `'"'`
		}
		return `"` + string(r) + `"`
	}
	return fmt.Sprintf("U+%04X", r)
}

func isNameStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isNameContinue(c byte) bool { return isNameStart(c) || isDigit(c) }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// at returns the byte at offset i, or 0 past the end.
func (l *lexer) at(i int) byte {
	if i < len(l.src) {
		return l.src[i]
	}
	return 0
}

func (l *lexer) next() (token, *lexError) {
	src := l.src
	for l.pos < len(src) {
		c := src[l.pos]
		switch c {
		case ' ', '\t', ',', '\n', '\r':
			l.pos++
			continue
		case '#':
			for l.pos < len(src) && src[l.pos] != '\n' && src[l.pos] != '\r' {
				l.pos++
			}
			continue
		}
		if strings.HasPrefix(src[l.pos:], "\uFEFF") {
			l.pos += len("\uFEFF")
			continue
		}
		start := l.pos
		switch c {
		case '!', '$', '&', '(', ')', ':', '=', '@', '[', ']', '{', '|', '}':
			l.pos++
			return token{kind: kind(src[start:l.pos]), start: start, end: l.pos}, nil
		case '.':
			if strings.HasPrefix(src[l.pos:], "...") {
				l.pos += 3
				return token{kind: "...", start: start, end: l.pos}, nil
			}
		case '"':
			if strings.HasPrefix(src[l.pos:], `"""`) {
				return l.blockString()
			}
			return l.string()
		}
		if isDigit(c) || c == '-' {
			return l.number()
		}
		if isNameStart(c) {
			for l.pos < len(src) && isNameContinue(src[l.pos]) {
				l.pos++
			}
			return token{kind: kindName, value: src[start:l.pos], start: start, end: l.pos}, nil
		}
		if c == '\'' {
			return token{}, l.errorf(start, `Unexpected single quote character ('), did you mean to use a double quote (")?`)
		}
		r, _ := utf8.DecodeRuneInString(src[start:])
		if r == utf8.RuneError {
			return token{}, l.errorf(start, "Invalid character: %s.", l.printCodePointAt(start))
		}
		return token{}, l.errorf(start, "Unexpected character: %s.", l.printCodePointAt(start))
	}
	return token{kind: kindEOF, start: len(src), end: len(src)}, nil
}

// number reads an Int or Float token.
func (l *lexer) number() (token, *lexError) {
	start := l.pos
	float := false
	if l.at(l.pos) == '-' {
		l.pos++
	}
	if l.at(l.pos) == '0' {
		l.pos++
		if isDigit(l.at(l.pos)) {
			return token{}, l.errorf(l.pos, "Invalid number, unexpected digit after 0: %s.", l.printCodePointAt(l.pos))
		}
	} else if err := l.digits(); err != nil {
		return token{}, err
	}
	if l.at(l.pos) == '.' {
		float = true
		l.pos++
		if err := l.digits(); err != nil {
			return token{}, err
		}
	}
	if c := l.at(l.pos); c == 'e' || c == 'E' {
		float = true
		l.pos++
		if c := l.at(l.pos); c == '+' || c == '-' {
			l.pos++
		}
		if err := l.digits(); err != nil {
			return token{}, err
		}
	}
	if c := l.at(l.pos); c == '.' || isNameStart(c) {
		return token{}, l.errorf(l.pos, "Invalid number, expected digit but got: %s.", l.printCodePointAt(l.pos))
	}
	k := kindInt
	if float {
		k = kindFloat
	}
	return token{kind: k, value: l.src[start:l.pos], start: start, end: l.pos}, nil
}

// digits reads one or more digits.
func (l *lexer) digits() *lexError {
	if !isDigit(l.at(l.pos)) {
		return l.errorf(l.pos, "Invalid number, expected digit but got: %s.", l.printCodePointAt(l.pos))
	}
	for isDigit(l.at(l.pos)) {
		l.pos++
	}
	return nil
}

// string reads a "..." string.
func (l *lexer) string() (token, *lexError) {
	src := l.src
	start := l.pos
	l.pos++
	var b strings.Builder
	for l.pos < len(src) {
		c := src[l.pos]
		switch {
		case c == '"':
			l.pos++
			return token{kind: kindString, value: b.String(), start: start, end: l.pos}, nil
		case c == '\n' || c == '\r':
			return token{}, l.errorf(l.pos, "Unterminated string.")
		case c == '\\':
			r, size, err := l.escape()
			if err != nil {
				return token{}, err
			}
			b.WriteRune(r)
			l.pos += size
		default:
			r, size := utf8.DecodeRuneInString(src[l.pos:])
			if r == utf8.RuneError && size <= 1 {
				return token{}, l.errorf(l.pos, "Invalid character within String: %s.", l.printCodePointAt(l.pos))
			}
			b.WriteString(src[l.pos : l.pos+size])
			l.pos += size
		}
	}
	return token{}, l.errorf(l.pos, "Unterminated string.")
}

// escape reads the escape sequence at l.pos (a backslash) and returns its
// character and length.
func (l *lexer) escape() (rune, int, *lexError) {
	src, pos := l.src, l.pos
	switch l.at(pos + 1) {
	case '"':
		return '"', 2, nil
	case '\\':
		return '\\', 2, nil
	case '/':
		return '/', 2, nil
	case 'b':
		return '\b', 2, nil
	case 'f':
		return '\f', 2, nil
	case 'n':
		return '\n', 2, nil
	case 'r':
		return '\r', 2, nil
	case 't':
		return '\t', 2, nil
	case 'u':
		if l.at(pos+2) == '{' {
			return l.escapeBraced()
		}
		r := hex4(src, pos+2)
		if isScalar(r) {
			return r, 6, nil
		}
		if r >= 0xD800 && r <= 0xDBFF && l.at(pos+6) == '\\' && l.at(pos+7) == 'u' {
			if r2 := hex4(src, pos+8); r2 >= 0xDC00 && r2 <= 0xDFFF {
				return 0x10000 + (r-0xD800)<<10 + (r2 - 0xDC00), 12, nil
			}
		}
		return 0, 0, l.errorf(pos, `Invalid Unicode escape sequence: "%s".`, clip(src, pos, pos+6))
	}
	return 0, 0, l.errorf(pos, `Invalid character escape sequence: "%s".`, clip(src, pos, pos+2))
}

// escapeBraced reads a \u{...} escape at l.pos.
func (l *lexer) escapeBraced() (rune, int, *lexError) {
	src, pos := l.src, l.pos
	var point rune
	size := 3
	for size < 12 {
		c := l.at(pos + size)
		size++
		if c == '}' {
			if size < 5 || !isScalar(point) {
				break
			}
			return point, size, nil
		}
		d := hexDigit(c)
		if d < 0 {
			break
		}
		point = point<<4 | d
	}
	return 0, 0, l.errorf(pos, `Invalid Unicode escape sequence: "%s".`, clip(src, pos, pos+size))
}

// blockString reads a """...""" string; its value is dedented as the
// specification's BlockStringValue says.
func (l *lexer) blockString() (token, *lexError) {
	src := l.src
	start := l.pos
	l.pos += 3
	var raw strings.Builder
	for l.pos < len(src) {
		switch {
		case strings.HasPrefix(src[l.pos:], `"""`):
			l.pos += 3
			return token{kind: kindBlockString, value: blockValue(raw.String()), start: start, end: l.pos}, nil
		case strings.HasPrefix(src[l.pos:], `\"""`):
			raw.WriteString(`"""`)
			l.pos += 4
		default:
			r, size := utf8.DecodeRuneInString(src[l.pos:])
			if r == utf8.RuneError && size <= 1 {
				return token{}, l.errorf(l.pos, "Invalid character within String: %s.", l.printCodePointAt(l.pos))
			}
			raw.WriteString(src[l.pos : l.pos+size])
			l.pos += size
		}
	}
	return token{}, l.errorf(l.pos, "Unterminated string.")
}

// blockValue dedents the raw text of a block string.
func blockValue(raw string) string {
	lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(raw, "\r\n", "\n"), "\r", "\n"), "\n")
	common := -1
	for i, line := range lines {
		if i == 0 {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " \t"))
		if indent < len(line) && (common < 0 || indent < common) {
			common = indent
		}
	}
	if common > 0 {
		for i := 1; i < len(lines); i++ {
			if len(lines[i]) >= common {
				lines[i] = lines[i][common:]
			} else {
				lines[i] = ""
			}
		}
	}
	blank := func(s string) bool { return strings.Trim(s, " \t") == "" }
	for len(lines) > 0 && blank(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && blank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// clip returns src[from:to], cut at the end of src.
func clip(src string, from, to int) string {
	return src[from:min(to, len(src))]
}

// hex4 reads four hex digits at i, or returns -1.
func hex4(src string, i int) rune {
	if i+4 > len(src) {
		return -1
	}
	var r rune
	for j := i; j < i+4; j++ {
		d := hexDigit(src[j])
		if d < 0 {
			return -1
		}
		r = r<<4 | d
	}
	return r
}

func hexDigit(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return rune(c-'A') + 10
	}
	return -1
}

// isScalar reports whether r is a Unicode scalar value (not a surrogate).
func isScalar(r rune) bool {
	return (r >= 0 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0x10FFFF)
}
