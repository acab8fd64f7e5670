package schemadef

import (
	"context"
	"sync"
	"sync/atomic"
	"unsafe"
)

// DefaultSinkQueue bounds the events a push subscription may have waiting
// for delivery.
const DefaultSinkQueue = 64

// Source is the event stream of one subscription: Next waits for events
// (pull), and Queue, set for a push source (SubscriptionSink), lets a
// transport be told of events instead of waiting for them.
type Source struct {
	Next  Events
	Queue *Queue
}

// Queue holds the events a push source has sent and its subscriber has
// not taken yet, up to a bound. It starts empty and grows on demand, so
// an idle subscription holds no buffer.
type Queue struct {
	// ctx is the context the source's function receives (first: its
	// methods find the queue at its address).
	ctx sourceCtx
	mu  sync.Mutex
	max int32
	// ended: the stream has ended; ctxDone: the subscription's context
	// is done and onEnd, if set, has been taken to run.
	ended   bool
	ctxDone bool
	// head is the first event waiting (nil: none), so that a subscriber
	// that keeps up queues its events without allocating; rare.more
	// holds those after it, when hasMore (rare is then read only by a
	// subscriber behind: every push subscription has one, for onEnd).
	hasMore bool
	head    unsafe.Pointer
	notify  Notifier
	rare    *queueRare
	// 64 bytes: a queue is one cache line, which a publish to thousands
	// of subscribers reads from memory once for each (then their
	// deliveries again).
}

// queueRare is what few queues use, or a queue seldom: the events waiting
// after the first (more), the function the source asked, through ctx's
// AfterFunc, to run when the subscription's context is done (onEnd),
// and the channel pull consumers wait on (wake).
type queueRare struct {
	more  []unsafe.Pointer
	onEnd func()
	wake  chan struct{}
}

// Notifier is told of news in a queue it watches (Queue.Watch). A
// transport's delivery state implements it itself: the queue then calls
// it with no closure between them to read.
type Notifier interface{ Notify() }

// rareLocked returns q's queueRare, made on first use; q.mu is held.
func (q *Queue) rareLocked() *queueRare {
	if q.rare == nil {
		q.rare = new(queueRare)
	}
	return q.rare
}

// onEndLocked returns the function AfterFunc registered; q.mu is held.
func (q *Queue) onEndLocked() func() {
	if q.rare == nil {
		return nil
	}
	return q.rare.onEnd
}

func newQueue() *Queue { return &Queue{max: DefaultSinkQueue} }

// sourceCtx is the context of a push subscription as its source's
// function receives it: the subscription's context, whose AfterFunc
// method lets the source learn of its end through the registration the
// queue already holds instead of one of its own (pubsub.Memory uses it),
// which saves a registration with the context per subscriber.
type sourceCtx struct{ context.Context }

func (c *sourceCtx) queue() *Queue { return (*Queue)(unsafe.Pointer(c)) }

// AfterFunc arranges to call f in its own goroutine once the
// subscription's context is done, as context.AfterFunc does, and returns
// the function that stops that call. The queue holds one such f; a
// further one, or one registered once the context is done, is handed to
// context.AfterFunc.
func (c *sourceCtx) AfterFunc(f func()) (stop func() bool) {
	q := c.queue()
	q.mu.Lock()
	if q.onEndLocked() != nil || q.ctxDone {
		q.mu.Unlock()
		return context.AfterFunc(c.Context, f)
	}
	q.rareLocked().onEnd = f
	q.mu.Unlock()
	return q.stopOnEnd
}

// stopOnEnd forgets the function AfterFunc registered; it reports false
// when it has already been taken to run.
func (q *Queue) stopOnEnd() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.onEndLocked() == nil {
		return false
	}
	q.rare.onEnd = nil
	return true
}

// contextDone ends the stream once the subscription's context is done,
// then calls the function the source registered through AfterFunc.
func (q *Queue) contextDone() {
	q.End()
	q.mu.Lock()
	f := q.onEndLocked()
	if f != nil {
		q.rare.onEnd = nil
	}
	q.ctxDone = true
	q.mu.Unlock()
	if f != nil {
		f()
	}
}

// lenLocked returns the number of events waiting; q.mu is held.
func (q *Queue) lenLocked() int {
	switch {
	case q.head == nil:
		return 0
	case !q.hasMore:
		return 1
	}
	return 1 + len(q.rare.more)
}

// push queues event p. It reports false, and ends the stream, when the
// queue is full: a subscriber that far behind is disconnected. After the
// stream ended it reports false.
func (q *Queue) push(p unsafe.Pointer) bool {
	q.mu.Lock()
	if q.ended {
		q.mu.Unlock()
		return false
	}
	ok := q.lenLocked() < int(q.max)
	switch {
	case !ok:
		q.ended = true
		q.head = nil
		if q.hasMore {
			q.rare.more, q.hasMore = nil, false
		}
	case q.head == nil:
		q.head = p
	default:
		r := q.rareLocked()
		r.more = append(r.more, p)
		q.hasMore = true
	}
	q.signalLocked()
	return ok
}

// End ends the stream: the subscriber takes the events already queued,
// then sees the end. It may be called more than once.
func (q *Queue) End() {
	q.mu.Lock()
	if q.ended {
		q.mu.Unlock()
		return
	}
	q.ended = true
	q.signalLocked()
}

// signalLocked tells the consumer there is news, and unlocks q.
func (q *Queue) signalLocked() {
	notify := q.notify
	var wake chan struct{}
	if notify == nil && q.rare != nil {
		wake = q.rare.wake
	}
	q.mu.Unlock()
	if notify != nil {
		notify.Notify()
	} else if wake != nil {
		select {
		case wake <- struct{}{}:
		default:
		}
	}
}

// Watch makes the queue call notify.Notify, from the goroutine of the
// source, after each event is queued and when the stream ends; it must
// not block. If events are already waiting, or the stream has ended, it
// runs at once.
func (q *Queue) Watch(notify Notifier) {
	q.mu.Lock()
	q.notify = notify
	pending := q.head != nil || q.ended
	q.mu.Unlock()
	if pending {
		notify.Notify()
	}
}

// TryNext takes the next event without waiting. ok is false when none
// is waiting; ended then reports whether none will come.
func (q *Queue) TryNext() (event unsafe.Pointer, ok, ended bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	event = q.head
	if event == nil {
		return nil, false, q.ended
	}
	q.head = nil
	if q.hasMore {
		r := q.rare
		q.head = r.more[0]
		r.more[0] = nil
		if r.more = r.more[1:]; len(r.more) == 0 {
			r.more, q.hasMore = nil, false // an emptied queue holds no buffer
		}
	}
	return event, true, false
}

// next is the pull form of the queue, for transports that wait for
// events.
func (q *Queue) next(ctx context.Context) (unsafe.Pointer, bool) {
	q.mu.Lock()
	r := q.rareLocked()
	if r.wake == nil {
		r.wake = make(chan struct{}, 1)
	}
	wake := r.wake
	q.mu.Unlock()
	for {
		if ev, ok, ended := q.TryNext(); ok || ended {
			return ev, ok
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, false
		}
	}
}

// Sink receives the events of a push subscription (SubscriptionSink).
// Its methods may be called from any goroutine.
type Sink[R any] struct {
	q *Queue
	// last is the field's last event sent, shared by its subscribers:
	// an event published to many of them is one value, not a copy each
	// (events are read, never written, once sent).
	last *atomic.Pointer[R]
}

// Send queues event for delivery and returns at once. It reports false
// when the subscription has ended, or when the subscriber has fallen
// further behind than the queue's bound, which ends the subscription.
// The event is read after Send returns and must not change, nor anything
// it points to (see Subscription): send a new value for each event.
func (s Sink[R]) Send(event R) bool {
	return s.q.push(unsafe.Pointer(s.value(event)))
}

// value returns event on the heap: the field's last event when it holds
// the same bits (the same value sent to another subscriber), else a new
// copy, which becomes the last.
func (s Sink[R]) value(event R) *R {
	if s.last == nil {
		p := new(R)
		*p = event
		return p
	}
	if p := s.last.Load(); p != nil && sameBits(p, &event) {
		return p
	}
	p := new(R)
	*p = event
	s.last.Store(p)
	return p
}

// sameBits reports whether *a and *b hold the same bytes.
func sameBits[R any](a, b *R) bool {
	n := unsafe.Sizeof(*a)
	return n == 0 || string(unsafe.Slice((*byte)(unsafe.Pointer(a)), n)) == string(unsafe.Slice((*byte)(unsafe.Pointer(b)), n))
}

// Close ends the subscription once the events already sent are
// delivered, as closing the channel of Subscription does.
func (s Sink[R]) Close() { s.q.End() }

// SubscriptionSink adds a field with arguments to the Subscription type
// whose events are pushed rather than received from a channel: fn
// registers the subscription with its source (a pubsub.PubSub callback,
// for example) and returns; the source calls the Sink's Send for each
// event and Close when it has no more. The subscription also ends when
// ctx is done (the subscriber leaves, the server shuts down), after
// which Send reports false; fn's source must let go of the Sink then.
//
// No goroutine waits on an idle push subscription, which makes it the
// cheaper form for many long-lived subscribers. Events wait in a queue
// that grows on demand up to DefaultSinkQueue; a subscriber that falls
// further behind is disconnected. R and the options are as for
// Subscription.
func SubscriptionSink[A, R any](b *Builder, name string, fn func(context.Context, A, Sink[R]) error, opts ...Option) {
	var open func(context.Context, A) (Source, error)
	if fn != nil {
		last := new(atomic.Pointer[R])
		open = func(ctx context.Context, a A) (Source, error) { return openSink(ctx, fn, a, last) }
	}
	addSubscription[A, R](b, name, opts, open)
}

// openSink starts a push subscription: fn registers a Sink with its
// source. One registration with ctx ends the queue and whatever the
// source asked, through the context fn receives (sourceCtx), to learn of
// the end; also when fn failed after registering.
func openSink[A, R any](ctx context.Context, fn func(context.Context, A, Sink[R]) error, a A, last *atomic.Pointer[R]) (Source, error) {
	q := newQueue()
	q.ctx.Context = ctx
	err := fn(&q.ctx, a, Sink[R]{q, last})
	context.AfterFunc(ctx, q.contextDone)
	if err != nil {
		return Source{}, err
	}
	return Source{Next: q.next, Queue: q}, nil
}
