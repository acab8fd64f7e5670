package transport

import (
	"testing"
	"time"
)

type clockConn struct{ int }

func TestClockFiresInOrderAndSkipsRemoved(t *testing.T) {
	fired := make(chan *clockConn, 8)
	k := NewClock(time.Millisecond, func(c *clockConn) { fired <- c })
	a, b, c := &clockConn{1}, &clockConn{2}, &clockConn{3}
	k.Add(a)
	tb := k.Add(b)
	k.Add(c)
	k.Remove(b, tb)
	k.Remove(c, tb) // a ticket removes only its own connection
	if got := <-fired; got != a {
		t.Fatalf("first fired %v, want a", got)
	}
	if got := <-fired; got != c {
		t.Fatalf("second fired %v, want c", got)
	}
	// Once empty, the clock starts again with the next deadline.
	d := &clockConn{4}
	k.Add(d)
	if got := <-fired; got != d {
		t.Fatalf("fired %v, want d", got)
	}
	select {
	case got := <-fired:
		t.Fatalf("fired %v after the removed one", got)
	default:
	}
	if !k.idle() {
		t.Fatal("after the last deadline the clock still holds deadlines or an armed timer")
	}
}
