package httpstream

import (
	"testing"
	"unsafe"
)

// TestDetachedDeliveryLines: what an event's delivery reads of a stream
// lies in its first 128 bytes, and its size is in the 192-byte class,
// whose objects start on a cache line: two lines a delivery.
func TestDetachedDeliveryLines(t *testing.T) {
	var s detached
	if size := unsafe.Sizeof(s); size <= 176 || size > 192 {
		t.Errorf("a detached is %d bytes, out of the 192-byte size class", size)
	}
	for name, end := range map[string]uintptr{
		"d": unsafe.Offsetof(s.d) + unsafe.Sizeof(s.d), "framed": unsafe.Offsetof(s.framed) + unsafe.Sizeof(s.framed),
		"f": unsafe.Offsetof(s.f) + 8, "h": unsafe.Offsetof(s.h) + 8,
		"wmu": unsafe.Offsetof(s.wmu) + unsafe.Sizeof(s.wmu), "failed": unsafe.Offsetof(s.failed) + 1,
		"waiting": unsafe.Offsetof(s.waiting) + 1, "beatDue": unsafe.Offsetof(s.beatDue) + 4,
		"rounds": unsafe.Offsetof(s.rounds) + unsafe.Sizeof(s.rounds), "rest": unsafe.Offsetof(s.rest) + unsafe.Sizeof(s.rest),
		"restHeld": unsafe.Offsetof(s.restHeld) + 8,
	} {
		if end > 128 {
			t.Errorf("detached.%s ends at byte %d, past the first two lines", name, end)
		}
	}
}
