package schema

import (
	"testing"
	"unicode/utf8"
)

func TestPlain8MatchesTheTable(t *testing.T) {
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 8; pos++ {
			b := []byte("abcdefgh")
			b[pos] = byte(c)
			want := c < utf8.RuneSelf && safeASCII[c]
			if got := plain8(string(b)); got != want {
				t.Fatalf("plain8 with byte %#x at %d = %v, want %v", c, pos, got, want)
			}
		}
	}
}
