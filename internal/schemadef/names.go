package schemadef

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// lowerCamel turns a Go field name into a GraphQL field name, as GraphQL
// APIs spell them and gqlgen maps them: the name is split into words at
// each capital, a run of capitals is an acronym (split further into the
// common Go initialisms, "HTMLURL" → "HTML", "URL"), and the words are
// joined in lower camel case with acronyms written as words: "ID" → "id",
// "BookID" → "bookId", "HTMLURL" → "htmlUrl", "URLPath" → "urlPath",
// "UserIDs" → "userIds", "AppearsIn" → "appearsIn".
func lowerCamel(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i, w := range goWords(s) {
		for j, r := range w {
			if j == 0 && i > 0 {
				b.WriteRune(unicode.ToUpper(r))
			} else {
				b.WriteRune(unicode.ToLower(r))
			}
		}
	}
	return b.String()
}

// goWords splits a Go identifier into its words: a capital starts a word,
// a run of capitals (with the digits in it) is an acronym whose last
// capital starts the next word when a lower-case letter follows, and an
// acronym followed by a lone "s" keeps it ("IDs"). Acronyms made of
// common initialisms are split into them.
func goWords(s string) []string {
	runes := []rune(s)
	var words []string
	start := 0
	i := 0
	for i < len(runes) {
		if !unicode.IsUpper(runes[i]) {
			i++
			continue
		}
		if i > start {
			words = append(words, string(runes[start:i]))
			start = i
		}
		// A run of capitals and digits.
		j := i
		for j < len(runes) && (unicode.IsUpper(runes[j]) || unicode.IsDigit(runes[j])) {
			j++
		}
		switch {
		case j-i == 1 || j < len(runes) && unicode.IsLower(runes[j]) && !unicode.IsUpper(runes[j-1]):
			// A plain word ("Name", "A1b"): its lower-case letters follow.
			i = j
			continue
		case j < len(runes) && runes[j] == 's' && (j+1 == len(runes) || !unicode.IsLower(runes[j+1])):
			// A plural acronym: "IDs".
			words = append(words, splitInitialisms(string(runes[i:j]))...)
			words[len(words)-1] += "s"
			j++
		case j < len(runes) && unicode.IsLower(runes[j]):
			// The last capital starts the next word: "URLPath".
			j--
			words = append(words, splitInitialisms(string(runes[i:j]))...)
		default:
			words = append(words, splitInitialisms(string(runes[i:j]))...)
		}
		i, start = j, j
	}
	if start < len(runes) {
		words = append(words, string(runes[start:]))
	}
	return words
}

// splitInitialisms splits an acronym into the common initialisms it is
// made of ("HTMLURL" → "HTML", "URL"), longest first; an acronym that is
// not made of them is one word.
func splitInitialisms(a string) []string {
	if initialisms[a] || len(a) <= 2 {
		return []string{a}
	}
	for n := min(len(a)-1, maxInitialism); n >= 2; n-- {
		if initialisms[a[:n]] {
			if rest := splitInitialisms(a[n:]); len(rest) > 1 || initialisms[rest[0]] {
				return append([]string{a[:n]}, rest...)
			}
		}
	}
	return []string{a}
}

// initialisms are the common initialisms of Go names (golint's list, as
// gqlgen uses it).
var initialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "CSV": true, "DB": true, "DNS": true,
	"EOF": true, "GUID": true, "HTML": true, "HTTP": true, "HTTPS": true, "ICMP": true, "ID": true,
	"IP": true, "JSON": true, "JWT": true, "KVK": true, "LHS": true, "QPS": true, "RAM": true, "RHS": true,
	"RPC": true, "SIP": true, "SLA": true, "SMTP": true, "SQL": true, "SSH": true, "TCP": true, "TLS": true,
	"TTL": true, "UDP": true, "UI": true, "UID": true, "URI": true, "URL": true, "UTF8": true, "UUID": true,
	"VM": true, "XML": true, "XMPP": true, "XSRF": true, "XSS": true,
}

// maxInitialism is the length of the longest initialism.
const maxInitialism = 5

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
