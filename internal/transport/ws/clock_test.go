package ws

import (
	"testing"
	"time"
)

func TestWSClockFiresInOrderAndSkipsRemoved(t *testing.T) {
	fired := make(chan *wsConn, 8)
	k := &wsClock{after: time.Millisecond, fire: func(c *wsConn) { fired <- c }}
	a, b, c := &wsConn{}, &wsConn{}, &wsConn{}
	k.add(a)
	tb := k.add(b)
	k.add(c)
	k.remove(b, tb)
	k.remove(c, tb) // a ticket removes only its own connection
	if got := <-fired; got != a {
		t.Fatalf("first fired %p, want a %p", got, a)
	}
	if got := <-fired; got != c {
		t.Fatalf("second fired %p, want c %p", got, c)
	}
	// Once empty, the clock starts again with the next deadline.
	d := &wsConn{}
	k.add(d)
	if got := <-fired; got != d {
		t.Fatalf("fired %p, want d %p", got, d)
	}
	select {
	case got := <-fired:
		t.Fatalf("fired %p after the removed one", got)
	default:
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.due) != 0 || k.due != nil || k.armed {
		t.Fatalf("after the last deadline: %d waiting, armed %v", len(k.due), k.armed)
	}
}

func TestWSHeaderGet(t *testing.T) {
	h := newWSHeader(map[string][]string{
		"Authorization":     {"Bearer a:b"},
		"X-Many":            {"first", "second"},
		"X-Empty":           {""},
		"Sec-Websocket-Key": {"dGhlIHNhbXBsZSBub25jZQ=="},
	})
	for name, want := range map[string]string{
		"Authorization": "Bearer a:b", "AUTHORIZATION": "Bearer a:b", "x-many": "first",
		"X-Empty": "", "Sec-WebSocket-Key": "", "X-Missing": "", "": "",
	} {
		if got := h.get(name); got != want {
			t.Errorf("get(%q) = %q, want %q", name, got, want)
		}
	}
}
