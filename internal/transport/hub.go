package transport

import (
	"errors"
	"runtime"
	"sync"
)

// Hub counts the connections and subscriptions of every streaming
// transport of one router, holds them within their bounds, and tells them
// when the server shuts down. A transport acquires before it holds and
// releases once it lets go; it registers a Closer for each connection
// that must be told of shutdown.
type Hub struct {
	maxConns, maxSubs int
	budget            Budget
	run               runner

	mu      sync.Mutex
	conns   int
	subs    int
	closing chan struct{}
	closed  bool
	closers map[Closer]struct{}
}

// Budget holds the bytes the transports keep for their clients until
// written: an answer or a payload built and waiting for a client to take
// it (the router's MaxBufferedBytes, shared with plain HTTP).
type Budget interface {
	// Hold reserves body's bytes and returns what to send: body, or an
	// answer refusing it (SERVER_BUSY) when the budget cannot hold it;
	// held is what to give back with Release once sent or dropped (0
	// for a refusal).
	Hold(body []byte) (send []byte, held int)
	// Release gives back bytes Hold reserved.
	Release(held int)
}

// SetBudget makes b hold what the transports keep for their clients; set
// it before the hub serves.
func (h *Hub) SetBudget(b Budget) { h.budget = b }

// Hold reserves body in the hub's budget (see Budget.Hold); without one
// every body passes. Give held back with Release.
func (h *Hub) Hold(body []byte) (send []byte, held int) {
	if h.budget == nil {
		return body, 0
	}
	return h.budget.Hold(body)
}

// Release gives back what Hold reserved.
func (h *Hub) Release(held int) {
	if h.budget != nil && held != 0 {
		h.budget.Release(held)
	}
}

// Closer is a connection the hub tells of shutdown: Shutdown completes
// its operations and closes it; it must not block the hub (run the work
// on a goroutine of its own if it waits).
type Closer interface {
	Shutdown()
}

// Why a stream's context was cancelled.
var (
	// ErrShutdown: the server is shutting down.
	ErrShutdown = errors.New("graft: server shutting down")
	// ErrClientGone: the client went away (a write failed).
	ErrClientGone = errors.New("graft: client gone")
	// ErrClientComplete: the client completed the subscription.
	ErrClientComplete = errors.New("graft: client completed the subscription")
)

// NewHub returns a hub bounding connections to maxConns and subscriptions
// to maxSubs.
func NewHub(maxConns, maxSubs int) *Hub {
	h := &Hub{maxConns: maxConns, maxSubs: maxSubs, closing: make(chan struct{}), closers: map[Closer]struct{}{}}
	h.run.max = max(runtime.GOMAXPROCS(0), 1)
	return h
}

// AcquireConn counts a new connection, or reports false when the bound is
// reached or the server is shutting down.
func (h *Hub) AcquireConn() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || h.conns >= h.maxConns {
		return false
	}
	h.conns++
	return true
}

// ReleaseConn releases a connection AcquireConn counted.
func (h *Hub) ReleaseConn() {
	h.mu.Lock()
	h.conns--
	h.mu.Unlock()
}

// AcquireSub counts a new subscription, or reports false when the bound
// is reached.
func (h *Hub) AcquireSub() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs >= h.maxSubs {
		return false
	}
	h.subs++
	return true
}

// ReleaseSub releases a subscription AcquireSub counted.
func (h *Hub) ReleaseSub() {
	h.mu.Lock()
	h.subs--
	h.mu.Unlock()
}

// Counts returns the open connections and running subscriptions.
func (h *Hub) Counts() (conns, subs int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.conns, h.subs
}

// Closing is closed when shutdown begins.
func (h *Hub) Closing() <-chan struct{} { return h.closing }

// Track registers c to be told of shutdown and reports true, or reports
// false once shutdown has begun (the caller then shuts c down itself).
func (h *Hub) Track(c Closer) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	h.closers[c] = struct{}{}
	return true
}

// Untrack forgets c.
func (h *Hub) Untrack(c Closer) {
	h.mu.Lock()
	delete(h.closers, c)
	h.mu.Unlock()
}

// Close begins shutdown, once: it closes Closing, tells every tracked
// connection, and refuses new connections.
func (h *Hub) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	h.closed = true
	close(h.closing)
	for c := range h.closers {
		c.Shutdown()
	}
	clear(h.closers)
}
