package clip

import (
	"testing"
	"unicode/utf8"
)

func TestPrefix(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 5, "abc"},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc"},
		{"aχb", 2, "a"}, // χ is two bytes: not cut in two
		{"aχb", 3, "aχ"},
		{"χχ", 1, ""},
		{"abc", 0, ""},
		{"abc", -1, ""},
	} {
		got := Prefix(tc.s, tc.n)
		if got != tc.want || !utf8.ValidString(got) {
			t.Errorf("Prefix(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
