// Package clip shortens text that messages and labels quote, without
// cutting a character in two.
package clip

import "unicode/utf8"

// Prefix returns the longest prefix of s of at most n bytes that does not
// end inside a character: s itself when it is short enough.
func Prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n < 0 {
		n = 0
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
