package schemadef

import (
	"encoding/binary"
	"math/rand/v2"
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

// TestPlainWordsMatchTheTable tests words with any mix of bytes, several
// of them not plain, so borrows between bytes are exercised: each byte is
// drawn from the values around the edges of the plain range.
func TestPlainWordsMatchTheTable(t *testing.T) {
	edges := []byte{0, 1, 0x1f, 0x20, 0x21, '"', 0x23, 0x5b, '\\', 0x5d, 0x7e, 0x7f, 0x80, 0x81, 0xa2, 0xdc, 0xfe, 0xff, 'a'}
	rng := rand.New(rand.NewPCG(1, 2))
	var w [16]byte
	for range 200000 {
		want := true
		for i := range w {
			w[i] = edges[rng.IntN(len(edges))]
			if rng.IntN(2) == 0 {
				w[i] = 'a' + byte(rng.IntN(26))
			}
			want = want && w[i] < utf8.RuneSelf && safeASCII[w[i]]
		}
		x, y := binary.LittleEndian.Uint64(w[:8]), binary.LittleEndian.Uint64(w[8:])
		if got := plainWords(x, y); got != want {
			t.Fatalf("plainWords of %q = %v, want %v", w, got, want)
		}
		wantX := true
		for _, c := range w[:8] {
			wantX = wantX && c < utf8.RuneSelf && safeASCII[c]
		}
		if got := plainWord(x); got != wantX {
			t.Fatalf("plainWord of %q = %v, want %v", w[:8], got, wantX)
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
