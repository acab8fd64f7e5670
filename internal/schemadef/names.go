package schemadef

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// lowerCamel turns a Go field name into a GraphQL field name: the leading
// run of capitals is lowered, keeping the last one of an acronym that
// starts the next word ("ID" → "id", "URLPath" → "urlPath", "AppearsIn" →
// "appearsIn", "IDs" → "ids").
func lowerCamel(s string) string {
	runes := []rune(s)
	n := 0
	for n < len(runes) && unicode.IsUpper(runes[n]) {
		n++
	}
	switch {
	case n == 0:
		return s
	case n == 1 || n == len(runes):
	case string(runes[n:]) == "s":
		n++ // a plural acronym: "IDs" → "ids"
	default:
		if unicode.IsLower(runes[n]) {
			n--
		}
	}
	for i := 0; i < n; i++ {
		runes[i] = unicode.ToLower(runes[i])
	}
	return string(runes)
}

// validName reports whether s is a GraphQL name: /[_A-Za-z][_0-9A-Za-z]*/.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// parsedRef is a type reference parsed from a string such as "[Episode!]!".
type parsedRef struct {
	list    *parsedRef
	name    string
	nonNull bool
}

// parseTypeString parses a GraphQL type reference. It returns false when
// the text is not one.
func parseTypeString(s string) (*parsedRef, bool) {
	s = strings.TrimSpace(s)
	r, rest, ok := parseRef(s)
	if !ok || strings.TrimSpace(rest) != "" {
		return nil, false
	}
	return r, true
}

func parseRef(s string) (*parsedRef, string, bool) {
	s = strings.TrimLeft(s, " ")
	r := &parsedRef{}
	if strings.HasPrefix(s, "[") {
		inner, rest, ok := parseRef(s[1:])
		if !ok {
			return nil, "", false
		}
		rest = strings.TrimLeft(rest, " ")
		if !strings.HasPrefix(rest, "]") {
			return nil, "", false
		}
		r.list, s = inner, rest[1:]
	} else {
		i := 0
		for i < len(s) {
			c, _ := utf8.DecodeRuneInString(s[i:])
			if c != '_' && !unicode.IsLetter(c) && !unicode.IsDigit(c) {
				break
			}
			i++
		}
		if !validName(s[:i]) {
			return nil, "", false
		}
		r.name, s = s[:i], s[i:]
	}
	s = strings.TrimLeft(s, " ")
	if strings.HasPrefix(s, "!") {
		r.nonNull, s = true, s[1:]
	}
	return r, s, true
}
