package graft

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// The execution timeout (Config.Timeout) of a request is kept by one
// watchdog per router rather than by a context.WithTimeout per request,
// which costs a timer, a context, a channel and an entry in the parent's
// children on every request. Requests enter a list in the order of their
// deadlines (one timeout for all, so arrival order); one goroutine, running
// only while the list is not empty, wakes every watchdogTick and ends the
// requests whose deadline passed or whose parent context ended (the client
// went away). Deadlines are thus kept to within a tick; timeouts shorter
// than watchdogMinTimeout use context.WithTimeout, exact.
const (
	watchdogTick       = 10 * time.Millisecond
	watchdogMinTimeout = time.Second
)

// watchdog ends the execution contexts of a router's requests.
type watchdog struct {
	mu         sync.Mutex
	head, tail *deadlineCtx
	running    bool
}

// start returns the execution context of a request, a child of parent
// ending timeout from now. The caller must call finish on it.
func (w *watchdog) start(parent context.Context, timeout time.Duration) *deadlineCtx {
	return w.startIn(new(deadlineCtx), parent, timeout)
}

// startIn is start with the context stored in d, a deadlineCtx never
// used before, so a request can carry it in an allocation it makes anyway.
func (w *watchdog) startIn(d *deadlineCtx, parent context.Context, timeout time.Duration) *deadlineCtx {
	d.Context = parent
	d.own = time.Now().Add(timeout)
	d.deadline = d.own
	if pd, ok := parent.Deadline(); ok && pd.Before(d.own) {
		d.deadline = pd
	}
	if err := parent.Err(); err != nil {
		d.cancel(err)
		return d
	}
	d.w = w
	w.mu.Lock()
	d.listed, d.prev = true, w.tail
	if w.tail != nil {
		w.tail.next = d
	} else {
		w.head = d
	}
	w.tail = d
	if !w.running {
		w.running = true
		go w.run()
	}
	w.mu.Unlock()
	return d
}

// unlink removes d from the list; w.mu must be held.
func (w *watchdog) unlink(d *deadlineCtx) {
	if !d.listed {
		return
	}
	if d.prev != nil {
		d.prev.next = d.next
	} else {
		w.head = d.next
	}
	if d.next != nil {
		d.next.prev = d.prev
	} else {
		w.tail = d.prev
	}
	d.listed, d.prev, d.next = false, nil, nil
}

// run ends the contexts whose time is up, every tick, until the list is
// empty.
func (w *watchdog) run() {
	t := time.NewTicker(watchdogTick)
	defer t.Stop()
	var ended []*deadlineCtx
	var errs []error
	for range t.C {
		now := time.Now()
		w.mu.Lock()
		for d := w.head; d != nil; {
			next := d.next
			var err error
			switch {
			case !now.Before(d.deadline):
				err = context.DeadlineExceeded
			default:
				err = d.Context.Err()
			}
			if err != nil {
				w.unlink(d)
				ended, errs = append(ended, d), append(errs, err)
			}
			d = next
		}
		idle := w.head == nil
		if idle {
			w.running = false
		}
		w.mu.Unlock()
		for i, d := range ended {
			d.cancel(errs[i])
		}
		clear(ended)
		ended, errs = ended[:0], errs[:0]
		if idle {
			return
		}
	}
}

// deadlineCtx is a request's execution context: its parent's values, done
// when its deadline passes, when its parent is done, or when the request
// finishes.
type deadlineCtx struct {
	context.Context              // the parent
	w               *watchdog    // nil when never listed
	listed          bool         // in w's list (guarded by w.mu)
	prev, next      *deadlineCtx // in w's list
	own             time.Time    // start + Config.Timeout: the list's order
	deadline        time.Time    // own, or the parent's deadline if earlier
	ended           atomic.Bool  // set once err is

	mu    sync.Mutex
	err   error
	done  chan struct{} // made by the first Done, closed when d ends
	funcs []*afterFunc  // AfterFunc callbacks, run once done
}

// closedDone is the Done channel of a context asked for it only once
// ended.
var closedDone = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

type afterFunc struct{ f func() }

// Deadline returns the request's deadline.
func (d *deadlineCtx) Deadline() (time.Time, bool) { return d.deadline, true }

// Done is closed when the context ends. It is made on the first call:
// the engine polls Ended instead, so most requests never make one.
func (d *deadlineCtx) Done() <-chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.done == nil {
		if d.err != nil {
			return closedDone
		}
		d.done = make(chan struct{})
	}
	return d.done
}

// Ended reports whether the context has ended (exec.Ender): Err returns
// non-nil from then on.
func (d *deadlineCtx) Ended() bool { return d.ended.Load() }

// Err returns why the context ended, nil before. A parent that ended
// between two ticks of the watchdog ends the context now.
func (d *deadlineCtx) Err() error {
	d.mu.Lock()
	err := d.err
	d.mu.Unlock()
	if err != nil {
		return err
	}
	if err := d.Context.Err(); err != nil {
		d.cancel(err)
		return d.Err()
	}
	return nil
}

// Value returns the parent's values, except the standard library's link
// to the nearest cancelable ancestor: that ancestor is not what ends this
// context, so context.Cause and derived contexts must not use it (they
// call AfterFunc and Err instead).
func (d *deadlineCtx) Value(key any) any {
	if cancelCtxKey != nil && key == cancelCtxKey {
		return nil
	}
	return d.Context.Value(key)
}

// AfterFunc arranges for f to run in its own goroutine once d is done,
// as context.AfterFunc does; context.WithCancel and the others use it to
// end contexts derived from d without a goroutine each.
func (d *deadlineCtx) AfterFunc(f func()) (stop func() bool) {
	d.mu.Lock()
	if d.err != nil {
		d.mu.Unlock()
		go f()
		return func() bool { return false }
	}
	a := &afterFunc{f: f}
	d.funcs = append(d.funcs, a)
	d.mu.Unlock()
	return func() bool {
		d.mu.Lock()
		defer d.mu.Unlock()
		for i, x := range d.funcs {
			if x == a {
				d.funcs = append(d.funcs[:i], d.funcs[i+1:]...)
				return true
			}
		}
		return false
	}
}

// cancel ends d with err unless it has ended.
func (d *deadlineCtx) cancel(err error) {
	d.mu.Lock()
	if d.err != nil {
		d.mu.Unlock()
		return
	}
	d.err = err
	d.ended.Store(true)
	if d.done != nil {
		close(d.done)
	}
	funcs := d.funcs
	d.funcs = nil
	d.mu.Unlock()
	for _, a := range funcs {
		go a.f()
	}
}

// finish ends d once its request is answered.
func (d *deadlineCtx) finish() {
	if w := d.w; w != nil {
		w.mu.Lock()
		w.unlink(d)
		w.mu.Unlock()
	}
	d.cancel(context.Canceled)
}

// cancelCtxKey is the key by which package context finds the nearest
// cancelable ancestor of a context (context.Cause asks for it once the
// context has ended); nil if it cannot be learned. This is graft's one
// use of package context's internals: TestSeamContextCancelKey fails when
// a Go release changes it.
var cancelCtxKey = func() any {
	p := &keyProbe{Context: context.Background()}
	_ = context.Cause(p)
	return p.key
}()

// keyProbe is an ended context that records the first key it is asked
// for.
type keyProbe struct {
	context.Context
	key any
}

// Err reports the probe ended: context.Cause looks for the cancelable
// ancestor only then.
func (p *keyProbe) Err() error { return context.Canceled }

func (p *keyProbe) Value(key any) any {
	if p.key == nil {
		p.key = key
	}
	return nil
}
