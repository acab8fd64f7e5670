package ws

import (
	"sync"
	"time"
)

// wsClock runs one kind of deadline (the init timeout, the keep-alive
// ping) for every WebSocket connection of a router from a single timer,
// rather than from a timer per connection. Every deadline of a clock is
// the same interval after it is added, so the deadlines are kept in the
// order they were added and the timer waits for the first one.
type wsClock struct {
	after time.Duration
	fire  func(*wsConn) // runs in the timer's goroutine; must not block

	mu    sync.Mutex
	due   []wsDue
	first uint64 // ticket of due[0]
	timer *time.Timer
	armed bool // the timer waits for due[0]
}

// wsDue is a connection's deadline; c is nil once removed.
type wsDue struct {
	c  *wsConn
	at time.Time
}

// add schedules fire(c) after the clock's interval and returns the
// ticket that removes it.
func (k *wsClock) add(c *wsConn) (ticket uint64) {
	at := time.Now().Add(k.after)
	k.mu.Lock()
	defer k.mu.Unlock()
	ticket = k.first + uint64(len(k.due))
	k.due = append(k.due, wsDue{c, at})
	if !k.armed {
		k.armed = true
		if k.timer == nil {
			k.timer = time.AfterFunc(k.after, k.tick)
		} else {
			k.timer.Reset(k.after)
		}
	}
	return ticket
}

// remove cancels the deadline of c with ticket, if it has not fired.
func (k *wsClock) remove(c *wsConn, ticket uint64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if i := ticket - k.first; ticket >= k.first && i < uint64(len(k.due)) && k.due[i].c == c {
		k.due[i].c = nil
	}
}

// tick fires the deadlines that have passed and waits for the next one.
func (k *wsClock) tick() {
	now := time.Now()
	var fired []*wsConn
	k.mu.Lock()
	for len(k.due) > 0 && !k.due[0].at.After(now) {
		if c := k.due[0].c; c != nil {
			fired = append(fired, c)
		}
		k.due[0] = wsDue{}
		k.due = k.due[1:]
		k.first++
	}
	if len(k.due) == 0 {
		k.due = nil // the emptied queue holds no array
		k.armed = false
	} else {
		k.timer.Reset(k.due[0].at.Sub(now))
	}
	k.mu.Unlock()
	for _, c := range fired {
		k.fire(c)
	}
}
