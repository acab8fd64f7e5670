package ws

import (
	"testing"
	"unsafe"

	"github.com/graftgql/graft/internal/testenv"
)

// TestConnDeliveryLines: what an event's delivery reads of a connection
// lies in its first 128 bytes, and its size is in the 320-byte class,
// whose objects start on a cache line: two lines a delivery.
func TestConnDeliveryLines(t *testing.T) {
	var c wsConn
	testenv.Layout(t, "wsConn", unsafe.Sizeof(c), 288, 320, 128, map[string]uintptr{
		"s": unsafe.Offsetof(c.s) + unsafe.Sizeof(c.s), "ended": unsafe.Offsetof(c.ended) + 4,
		"closing": unsafe.Offsetof(c.closing) + 4, "wmu": unsafe.Offsetof(c.wmu) + unsafe.Sizeof(c.wmu),
		"until": unsafe.Offsetof(c.until) + 8, "held": unsafe.Offsetof(c.held) + 8,
		"mu": unsafe.Offsetof(c.mu) + unsafe.Sizeof(c.mu), "head": unsafe.Offsetof(c.head) + unsafe.Sizeof(c.head),
		"tail": unsafe.Offsetof(c.tail) + 8, "raw": unsafe.Offsetof(c.raw) + unsafe.Sizeof(c.raw),
		"hasRaw": unsafe.Offsetof(c.hasRaw) + 1, "draining": unsafe.Offsetof(c.draining) + 1,
		"pingDue": unsafe.Offsetof(c.pingDue) + 1, "restLocked": unsafe.Offsetof(c.restLocked) + 1,
		"waiting": unsafe.Offsetof(c.waiting) + 1, "dsub": unsafe.Offsetof(c.dsub) + 8,
		"cur": unsafe.Offsetof(c.cur) + 8, "rest": unsafe.Offsetof(c.rest) + unsafe.Sizeof(c.rest),
		"restHeld": unsafe.Offsetof(c.restHeld) + 8,
	})
	var sub wsSub
	if size := unsafe.Sizeof(sub); size != 128 {
		t.Errorf("a wsSub is %d bytes, want 128 (a size class on cache lines)", size)
	}
	for name, off := range map[string]uintptr{
		"framed": unsafe.Offsetof(sub.framed), "fkey": unsafe.Offsetof(sub.fkey),
		"nextQueued": unsafe.Offsetof(sub.nextQueued), "queued": unsafe.Offsetof(sub.queued),
		"done": unsafe.Offsetof(sub.done), "failed": unsafe.Offsetof(sub.failed),
		"completed": unsafe.Offsetof(sub.completed),
	} {
		if off < 64 {
			t.Errorf("wsSub.%s at byte %d, out of the second line with the rest a delivery reads", name, off)
		}
	}
}
