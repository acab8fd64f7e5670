package httpstream

import (
	"testing"
	"unsafe"

	"github.com/graftgql/graft/internal/testenv"
)

// TestDetachedDeliveryLines: what an event's delivery reads of a stream
// lies in its first 128 bytes, and its size is in the 192-byte class,
// whose objects start on a cache line: two lines a delivery.
func TestDetachedDeliveryLines(t *testing.T) {
	var s detached
	testenv.Layout(t, "detached", unsafe.Sizeof(s), 176, 192, 128, map[string]uintptr{
		"d": unsafe.Offsetof(s.d) + unsafe.Sizeof(s.d), "framed": unsafe.Offsetof(s.framed) + unsafe.Sizeof(s.framed),
		"f": unsafe.Offsetof(s.f) + 8, "h": unsafe.Offsetof(s.h) + 8,
		"wmu": unsafe.Offsetof(s.wmu) + unsafe.Sizeof(s.wmu), "failed": unsafe.Offsetof(s.failed) + 1,
		"waiting": unsafe.Offsetof(s.waiting) + 1, "beatDue": unsafe.Offsetof(s.beatDue) + 4,
		"rounds": unsafe.Offsetof(s.rounds) + unsafe.Sizeof(s.rounds), "rest": unsafe.Offsetof(s.rest) + unsafe.Sizeof(s.rest),
		"restHeld": unsafe.Offsetof(s.restHeld) + 8,
	})
}
