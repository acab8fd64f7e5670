package redisstore

import (
	"sync"
	"time"
)

// breaker is a small circuit breaker. Closed, every call goes through.
// After a failure it opens for cooldown: calls are refused at once. Then it
// lets one trial call through (half-open): its success closes the breaker,
// its failure opens it again. A cooldown of zero or less never opens it.
type breaker struct {
	cooldown time.Duration

	mu        sync.Mutex
	openUntil time.Time // zero: closed
	trial     bool      // a trial call is in flight
}

// allow reports whether a call may reach Redis now.
func (b *breaker) allow(now time.Time) bool {
	if b.cooldown <= 0 {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.openUntil.IsZero():
		return true
	case now.Before(b.openUntil) || b.trial:
		return false
	default:
		b.trial = true
		return true
	}
}

// succeeded closes the breaker.
func (b *breaker) succeeded() {
	if b.cooldown <= 0 {
		return
	}
	b.mu.Lock()
	b.openUntil, b.trial = time.Time{}, false
	b.mu.Unlock()
}

// failed opens the breaker for the cooldown from now.
func (b *breaker) failed(now time.Time) {
	if b.cooldown <= 0 {
		return
	}
	b.mu.Lock()
	b.openUntil, b.trial = now.Add(b.cooldown), false
	b.mu.Unlock()
}

// abandoned ends a trial call whose caller gave up, so another call may try.
func (b *breaker) abandoned() {
	if b.cooldown <= 0 {
		return
	}
	b.mu.Lock()
	b.trial = false
	b.mu.Unlock()
}
