package schemadef

import (
	"strings"
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

func TestPlainStringMatchesTheTable(t *testing.T) {
	for n := 0; n <= 40; n++ {
		for pos := 0; pos < n; pos++ {
			for _, c := range []byte{0, 0x1f, '"', '\\', 0x7f, 0x80, 0xff, 'a', ' '} {
				b := []byte(strings.Repeat("abcdefghijklmnopqrstuvwxyz", 2)[:n])
				b[pos] = c
				want := c < utf8.RuneSelf && safeASCII[c]
				if got := plainString(string(b)); got != want {
					t.Fatalf("plainString(%q) = %v, want %v", b, got, want)
				}
			}
		}
	}
}
