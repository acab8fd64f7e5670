package transport

import (
	"errors"
	"sync"
)

// Fan-out: an event published to many subscribers makes every one of
// their streams ready at once. Starting a goroutine per stream per event
// would cost a goroutine, its stack growth and its scheduling for every
// subscriber; instead the hub keeps the ready streams in one list that a
// few workers (at most GOMAXPROCS) work through, and exit once it is
// empty, so an idle hub has none. A task never waits on its client: it
// writes what the socket takes at once (RawWriter) and hands a stream
// whose client is behind to a goroutine of its own (ErrPause).

// Task is a stream's delivery, run by the hub's workers (Hub.Schedule).
// Run must not block: a task that would wait for its client goes on in a
// goroutine of its own.
type Task interface {
	Run()
}

// A Prefetcher (a Task, or what a Task's delivery reads) asks for the
// memory it will read, ahead of use (package prefetch): a publish to
// thousands of subscribers finds each one's state in memory, not in the
// cache, and while a worker writes to one client (a system call of
// microseconds) the next ones' state arrives. Before it runs a task, a
// worker calls Prefetch(0) for the task prefetchLevels after it,
// Prefetch(1) for the one before that, and so on down to the next task:
// at level 0 a task asks for its own state, at level 1 for what that
// points to (read now: it arrived meanwhile), at 2 for the level below.
// Prefetch reads only what is set before the task is scheduled and does
// not change while it is, or reads it atomically; it must not block.
type Prefetcher interface {
	Prefetch(level int)
}

// prefetchLevels is how many tasks ahead a worker prefetches: one level
// of pointers a task.
const prefetchLevels = 4

// ErrPause, returned by the send function handed to an operation's
// Drain, stops the drain and leaves the events not yet taken waiting
// (rather than dropping them as after a failure): the transport cannot
// write now and drains again later, from a goroutine that may wait.
var ErrPause = errors.New("graft: delivery paused")

// workerBatch bounds the tasks a worker takes at once, so that other
// workers share a long list.
const workerBatch = 64

// runner is the hub's ready list and its workers.
type runner struct {
	mu      sync.Mutex
	ready   []Task
	head    int
	workers int
	max     int
	spare   []Task // a batch buffer for a worker
}

// prefetchers returns batch's tasks as Prefetchers in pre (nil where one
// is not), allocated on first use; none for a batch of one.
func prefetchers(pre []Prefetcher, batch []Task) []Prefetcher {
	if len(batch) < 2 {
		return pre[:0]
	}
	if pre == nil {
		pre = make([]Prefetcher, 0, workerBatch)
	}
	pre = pre[:len(batch)]
	for i, t := range batch {
		pre[i], _ = t.(Prefetcher)
	}
	return pre
}

// Schedule runs t on one of the hub's workers, soon; a task scheduled
// while it runs runs again. The caller must not block on t's completion.
func (h *Hub) Schedule(t Task) {
	r := &h.run
	r.mu.Lock()
	r.ready = append(r.ready, t)
	start := r.workers < r.max
	if start {
		r.workers++
	}
	r.mu.Unlock()
	if start {
		go r.work()
	}
}

// work runs ready tasks, a batch at a time, until there are none.
func (r *runner) work() {
	var batch []Task
	var pre []Prefetcher
	for {
		r.mu.Lock()
		n := len(r.ready) - r.head
		if n == 0 {
			r.workers--
			// A long list is let go once worked through: an idle hub
			// holds no buffer for it.
			if cap(r.ready) > 1024 {
				r.ready = nil
			} else {
				clear(r.ready)
				r.ready = r.ready[:0]
			}
			r.head = 0
			if batch != nil && r.spare == nil && cap(batch) <= workerBatch {
				r.spare = batch[:0]
			}
			r.mu.Unlock()
			return
		}
		if batch == nil {
			batch, r.spare = r.spare, nil
		}
		n = min(n, workerBatch)
		batch = append(batch[:0], r.ready[r.head:r.head+n]...)
		clear(r.ready[r.head : r.head+n])
		r.head += n
		r.mu.Unlock()
		pre = prefetchers(pre, batch)
		for i, t := range batch {
			for a := 1; a <= prefetchLevels && i+a < len(pre); a++ {
				if p := pre[i+a]; p != nil {
					p.Prefetch(prefetchLevels - a)
				}
			}
			t.Run()
			batch[i] = nil
		}
		clear(pre)
	}
}

// FramedDrainer is an Operation (the router's are) whose events a
// transport can take already framed for its wire: DrainFramed is Drain
// that hands f.Send f.Frame(dst, payload) rather than the payload. When
// the payload is an answer shared by the subscribers of one selection
// (no hook observes payloads), the framed bytes are built once per event
// and key and shared too, so a subscriber costs no encoding and no copy:
// key names the framing and must be comparable, and f.Frame must give
// the same bytes for the same key and payload. Its Prefetch asks for
// what DrainFramed reads, for a task that delivers it.
type FramedDrainer interface {
	DrainFramed(key any, f Framing) (ended bool)
	Prefetcher
}

// Framing is how a transport frames and writes the events of one stream
// (FramedDrainer).
type Framing interface {
	// Frame appends payload to dst framed for the wire, and keeps
	// nothing.
	Frame(dst, payload []byte) []byte
	// Send writes framed bytes, which it must not modify nor keep past
	// its return; it may return ErrPause (having copied what it still
	// has to write). After another error the rest are dropped.
	Send(framed []byte) error
}

// Rounds is what a Task scheduled on a hub keeps of its runs: whether one
// is scheduled or under way, and whether news arrived meanwhile. The zero
// value is ready; it must not be copied once used.
type Rounds struct {
	mu       sync.Mutex
	draining bool // a run is scheduled or under way
	pending  bool // news arrived while it was
}

// Schedule is a task's notice of news: it schedules t on h unless a run
// of t is scheduled or under way, which then goes round again (Again). It
// does not block.
func (r *Rounds) Schedule(h *Hub, t Task) {
	r.mu.Lock()
	if r.draining {
		r.pending = true
		r.mu.Unlock()
		return
	}
	r.draining = true
	r.mu.Unlock()
	h.Schedule(t)
}

// Again ends a round of a run: it reports true when news arrived during
// it, and the run goes round again; otherwise the run ends and the next
// news schedules the task anew.
func (r *Rounds) Again() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.pending {
		r.draining = false
		return false
	}
	r.pending = false
	return true
}
