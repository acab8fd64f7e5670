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
	// The tick that fired d lets go of the arrays once fire returns: wait
	// for it, rather than read the clock while that tick still runs.
	for wait := time.Now().Add(10 * time.Second); !k.idle(); time.Sleep(time.Millisecond) {
		if time.Now().After(wait) {
			t.Fatal("after the last deadline the clock still holds deadlines or an armed timer")
		}
	}
}

// A keep-alive clock adds every connection again when it fires: once its
// array has grown to the connections' number, a round allocates nothing.
func TestClockRoundsReuseTheArray(t *testing.T) {
	var k *Clock[*clockConn]
	k = NewClock(time.Hour, func(c *clockConn) { k.Add(c) })
	conns := make([]clockConn, 1000)
	for i := range conns {
		k.Add(&conns[i])
	}
	round := func() {
		k.start = k.start.Add(-time.Hour) // every deadline has passed
		k.tick()
	}
	round()
	if allocs := testing.AllocsPerRun(10, round); allocs != 0 {
		t.Errorf("%.1f allocations per round of 1,000 connections, want 0", allocs)
	}
	k.mu.Lock()
	n := len(k.due) - k.head
	k.mu.Unlock()
	if n != len(conns) {
		t.Fatalf("%d deadlines after the rounds, want %d", n, len(conns))
	}
}
