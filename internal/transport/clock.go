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
	start time.Time

	mu    sync.Mutex
	due   []due[C] // due[head:] wait, in order
	head  int
	first uint64 // ticket of due[head]
	timer *time.Timer
	armed bool // the timer waits for due[head]
	fired []C  // tick's buffer, kept between ticks
}

// due is a connection's deadline, in nanoseconds since the clock's
// start; live is false once removed.
type due[C comparable] struct {
	c    C
	at   int64
	live bool
}

// NewClock returns a clock that calls fire(c) after is past the moment
// c was added. fire runs in the clock's timer goroutine and must not
// block.
func NewClock[C comparable](after time.Duration, fire func(C)) *Clock[C] {
	return &Clock[C]{after: after, fire: fire, start: time.Now()}
}

// now is the time since the clock's start (monotonic).
func (k *Clock[C]) now() int64 { return int64(time.Since(k.start)) }

// Add schedules fire(c) after the clock's interval and returns the
// ticket that removes it. The deadlines of every connection live in one
// array, reused round after round: a connection added again each time it
// fires (a keep-alive) allocates nothing.
func (k *Clock[C]) Add(c C) (ticket uint64) {
	at := k.now() + int64(k.after)
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.due) == cap(k.due) && k.head > 0 {
		// The room the fired deadlines left is used before the array
		// grows.
		n := copy(k.due, k.due[k.head:])
		clear(k.due[n:])
		k.due, k.head = k.due[:n], 0
	}
	ticket = k.first + uint64(len(k.due)-k.head)
	k.due = append(k.due, due[C]{c, at, true})
	if !k.armed {
		k.armed = true
		if k.timer == nil {
			k.timer = time.AfterFunc(k.after, k.tick)
		} else {
			k.timer.Reset(time.Duration(k.due[k.head].at - k.now()))
		}
	}
	return ticket
}

// Remove cancels the deadline of c with ticket, if it has not fired.
func (k *Clock[C]) Remove(c C, ticket uint64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if ticket < k.first || ticket-k.first >= uint64(len(k.due)-k.head) {
		return
	}
	if d := &k.due[k.head+int(ticket-k.first)]; d.live && d.c == c {
		*d = due[C]{}
	}
}

// tick fires the deadlines that have passed and waits for the next one.
// A clock that stays empty once they have fired lets go of its arrays.
func (k *Clock[C]) tick() {
	now := k.now()
	k.mu.Lock()
	fired := k.fired[:0]
	k.fired = nil
	for k.head < len(k.due) && k.due[k.head].at <= now {
		if d := k.due[k.head]; d.live {
			fired = append(fired, d.c)
		}
		k.due[k.head] = due[C]{}
		k.head++
		k.first++
	}
	if k.head == len(k.due) {
		k.due, k.head = k.due[:0], 0
		k.armed = false
	} else {
		k.timer.Reset(time.Duration(k.due[k.head].at - now))
	}
	k.mu.Unlock()
	for _, c := range fired {
		k.fire(c)
	}
	clear(fired)
	k.mu.Lock()
	if k.fired == nil {
		k.fired = fired[:0]
	}
	if !k.armed && len(k.due) == 0 {
		k.due, k.fired = nil, nil
	}
	k.mu.Unlock()
}

// idle reports whether the clock holds no deadline and its timer is not
// armed (tests).
func (k *Clock[C]) idle() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.due) == 0 && k.due == nil && !k.armed
}
