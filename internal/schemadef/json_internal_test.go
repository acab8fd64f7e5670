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

// TestAppendJSONStringShortPathsMatchTheEscaper checks the word-at-a-time
// copies of short strings against the escaping writer, for every length up
// to 40, a byte of each kind at every position, and buffers filled to every
// point of their capacity (so the window past the string is exercised at
// the end of the buffer too).
func TestAppendJSONStringShortPathsMatchTheEscaper(t *testing.T) {
	alphabet := strings.Repeat("abcdefghijklmnopqrstuvwxyz", 2)
	for n := 0; n <= 40; n++ {
		inputs := []string{alphabet[:n]}
		for pos := 0; pos < n; pos++ {
			for _, c := range []byte{0, '\n', 0x1f, '"', '\\', 0x7f, 0x80, 0xff} {
				b := []byte(alphabet[:n])
				b[pos] = c
				inputs = append(inputs, string(b))
			}
		}
		for _, s := range inputs {
			want := string(appendEscaped([]byte("<>"), s))
			for fill := 0; fill <= 40; fill += 7 {
				buf := make([]byte, fill, fill+n+2)
				for i := range buf {
					buf[i] = '#'
				}
				got := AppendJSONString(buf, s)
				if string(got[:fill]) != strings.Repeat("#", fill) || "<>"+string(got[fill:]) != want {
					t.Fatalf("AppendJSONString(%q) after %d bytes = %q, want %q", s, fill, got, want[2:])
				}
			}
		}
	}
}
