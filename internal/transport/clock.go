package transport

import (
	"sync"
	"time"
)

// Clock runs one kind of deadline (a WebSocket's init timeout, the
// keep-alive of the streams) for every connection of a router from a
// single timer, rather than from a timer per connection. Every deadline
// of a clock is the same interval after it is added, so the deadlines
// are kept in the order they were added and the timer waits for the
// first one.
type Clock[C comparable] struct {
	after time.Duration
	fire  func(C) // runs in the timer's goroutine; must not block

	mu    sync.Mutex
	due   []due[C]
	first uint64 // ticket of due[0]
	timer *time.Timer
	armed bool // the timer waits for due[0]
}

// due is a connection's deadline; live is false once removed.
type due[C comparable] struct {
	c    C
	at   time.Time
	live bool
}

// NewClock returns a clock that calls fire(c) after is past the moment
// c was added. fire runs in the clock's timer goroutine and must not
// block.
func NewClock[C comparable](after time.Duration, fire func(C)) *Clock[C] {
	return &Clock[C]{after: after, fire: fire}
}

// Add schedules fire(c) after the clock's interval and returns the
// ticket that removes it.
func (k *Clock[C]) Add(c C) (ticket uint64) {
	at := time.Now().Add(k.after)
	k.mu.Lock()
	defer k.mu.Unlock()
	ticket = k.first + uint64(len(k.due))
	k.due = append(k.due, due[C]{c, at, true})
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

// Remove cancels the deadline of c with ticket, if it has not fired.
func (k *Clock[C]) Remove(c C, ticket uint64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if i := ticket - k.first; ticket >= k.first && i < uint64(len(k.due)) && k.due[i].live && k.due[i].c == c {
		k.due[i] = due[C]{}
	}
}

// tick fires the deadlines that have passed and waits for the next one.
func (k *Clock[C]) tick() {
	now := time.Now()
	var fired []C
	k.mu.Lock()
	for len(k.due) > 0 && !k.due[0].at.After(now) {
		if k.due[0].live {
			fired = append(fired, k.due[0].c)
		}
		k.due[0] = due[C]{}
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

// idle reports whether the clock holds no deadline and its timer is not
// armed (tests).
func (k *Clock[C]) idle() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.due) == 0 && k.due == nil && !k.armed
}
