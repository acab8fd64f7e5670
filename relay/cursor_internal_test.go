package relay

import (
	"hash/fnv"
	"testing"
)

// TestConnectionHashIsFNV1a checks the inline hash against hash/fnv.
func TestConnectionHashIsFNV1a(t *testing.T) {
	for _, c := range [][2]string{{"BookConnection", ""}, {"BookConnection", "12"}, {"", "x"}} {
		h := fnv.New32a()
		h.Write([]byte(c[0] + "\x00" + c[1]))
		s := h.Sum32()
		if got := connectionHash(c[0], c[1]); got != [4]byte{byte(s >> 24), byte(s >> 16), byte(s >> 8), byte(s)} {
			t.Errorf("%q: %x, want %08x", c, got, s)
		}
	}
}
