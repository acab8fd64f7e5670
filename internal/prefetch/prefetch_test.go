package prefetch

import (
	"testing"
	"unsafe"
)

// TestLineIsAHint: prefetching neither faults, at an address not mapped
// (nil) either, nor changes memory.
func TestLineIsAHint(t *testing.T) {
	b := make([]byte, 4*LineSize)
	for i := range b {
		b[i] = byte(i)
	}
	Lines(unsafe.Pointer(&b[0]), 4)
	Line(nil)
	for i := range b {
		if b[i] != byte(i) {
			t.Fatalf("byte %d changed to %d", i, b[i])
		}
	}
}
