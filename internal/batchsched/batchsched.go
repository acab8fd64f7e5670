// Package batchsched decides when the batches of one request are sent. The
// executor runs the resolvers of a level as tasks of a Scheduler; a task
// that waits for a keyed load (package loader) blocks, and once every task
// of the request is either finished or blocked, no more work can add keys
// to a batch, so the Scheduler starts every queued batch at once. Nothing
// waits on a timer.
package batchsched

import (
	"context"
	"sync"
	"sync/atomic"
)

// Batch is a queue of keys waiting to be sent in one call, such as a
// loader's pending keys.
type Batch interface {
	// Dispatch sends the queued keys and resolves their waiters. It runs in
	// its own task; ctx is the request's context.
	Dispatch(ctx context.Context)
}

// Scheduler tracks the tasks of one request. It is safe for concurrent
// use.
type Scheduler struct {
	ctx   context.Context
	limit int
	sem   chan struct{} // made by Bound or the first batch, under mu
	gen   atomic.Uint64 // changed by Reset: tasks of an earlier use are stale

	mu      sync.Mutex
	active  int // tasks that are running or about to run, not blocked
	pending []Batch
	locals  map[any]any // Local's values, for this request only
}

// NewScheduler returns a scheduler for a request with context ctx that
// runs at most limit tasks at once (limit < 1 means 1).
func NewScheduler(ctx context.Context, limit int) *Scheduler {
	s := &Scheduler{}
	s.Reset(ctx, limit)
	return s
}

// Reset prepares s, idle, for another request, so that a pooled request
// can keep its scheduler. Tasks of earlier requests become stale: From
// no longer returns them, so a context kept past its request cannot
// disturb the next one.
func (s *Scheduler) Reset(ctx context.Context, limit int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gen.Add(1)
	s.ctx, s.active, s.pending, s.locals = ctx, 0, nil, nil
	if limit = max(limit, 1); limit != s.limit {
		s.limit, s.sem = limit, nil
	}
}

// Bound makes the concurrency bound ready before tasks run in goroutines
// of their own; the goroutine that created the scheduler calls it.
func (s *Scheduler) Bound() {
	s.mu.Lock()
	s.boundLocked()
	s.mu.Unlock()
}

// boundLocked creates the semaphore on first use.
func (s *Scheduler) boundLocked() {
	if s.sem == nil {
		s.sem = make(chan struct{}, s.limit)
	}
}

// Task is one unit of tracked work: a resolver call or a batch. Its
// context (see Context) carries it to the loaders it calls.
type Task struct {
	s       *Scheduler
	gen     uint64
	waiting int  // loads the task waits for; guarded by s.mu
	slot    bool // the task holds a slot of s.sem
	// baton, when set, is held while the task runs and given up while it
	// waits for a load, so that tasks sharing it never run at once
	// (Serialize).
	baton chan struct{}
	// handoff, when set, is called the first time the task blocks, before
	// the batches may start: it registers the next task of a sequence.
	handoff func()
}

type taskKey struct{}

// Key is the context key under which a context carries its *Task.
var Key any = taskKey{}

// From returns the task that ctx belongs to, or nil when ctx is not a
// tracked task's context.
func From(ctx context.Context) *Task {
	if ctx == nil {
		return nil
	}
	t, _ := ctx.Value(Key).(*Task)
	if t != nil && t.gen != t.s.gen.Load() {
		return nil // a task of an earlier request
	}
	return t
}

// Context returns a context for a task: ctx with t as its value under Key.
func (t *Task) Context(ctx context.Context) context.Context {
	return context.WithValue(ctx, Key, t)
}

// Scheduler returns the scheduler that runs t.
func (t *Task) Scheduler() *Scheduler { return t.s }

// NewTask registers a task that is about to run: until it finishes (Done)
// or blocks (Block), queued batches wait for it.
func (s *Scheduler) NewTask() *Task {
	t := &Task{s: s, gen: s.gen.Load()}
	s.mu.Lock()
	s.active++
	s.mu.Unlock()
	return t
}

// Init registers t, a task whose memory the caller owns (a slice of tasks,
// say), as NewTask does.
func (s *Scheduler) Init(t *Task) {
	*t = Task{s: s, gen: s.gen.Load()}
	s.mu.Lock()
	s.active++
	s.mu.Unlock()
}

// Serialize makes t one of tasks that must never run at once (the
// resolvers of a level that are not declared concurrent): it waits for
// baton, holds it while it runs and gives it up while it waits for a
// load. handoff, when not nil, is called the first time t blocks, before
// the queued batches may start: it registers (NewTask or Init) and starts
// the next task of the sequence, so that the loads of every task of the
// sequence share one batch. Done gives the baton up.
func (t *Task) Serialize(baton chan struct{}, handoff func()) {
	baton <- struct{}{}
	t.baton, t.handoff = baton, handoff
}

// Acquire takes a slot of the concurrency bound for t, waiting for one.
func (t *Task) Acquire() {
	t.s.sem <- struct{}{}
	t.slot = true
}

// Done ends t: it releases its slot and, when it was the last task that
// could add keys, starts the queued batches.
func (t *Task) Done() {
	if t.slot {
		t.slot = false
		<-t.s.sem
	}
	if t.baton != nil {
		<-t.baton
		t.baton, t.handoff = nil, nil
	}
	s := t.s
	s.mu.Lock()
	s.active--
	start := s.takeLocked()
	s.mu.Unlock()
	s.start(start)
}

// Enqueue queues b, which has keys waiting, to be dispatched once no task
// can add keys. A batch is queued once until it is dispatched.
func (s *Scheduler) Enqueue(b Batch) {
	s.mu.Lock()
	s.pending = append(s.pending, b)
	s.mu.Unlock()
}

// Block records that t waits for a load: it gives up its slot, and when
// no other task is running the queued batches start. The caller waits
// for its load after Block returns; whoever completes the load calls Wake
// for t first.
func (t *Task) Block() {
	s := t.s
	if h := t.handoff; h != nil {
		t.handoff = nil
		h()
	}
	if t.baton != nil {
		<-t.baton
	}
	if t.slot {
		<-s.sem
	}
	s.mu.Lock()
	t.waiting++
	if t.waiting == 1 {
		s.active--
	}
	start := s.takeLocked()
	s.mu.Unlock()
	s.start(start)
}

// Wake records that a load t waited for is complete. It is called before
// the waiter is released, so the count of running tasks never drops to
// zero in between and batches stay whole.
func (t *Task) Wake() {
	s := t.s
	s.mu.Lock()
	t.waiting--
	if t.waiting == 0 {
		s.active++
	}
	s.mu.Unlock()
}

// Resume takes a slot again after a blocked load completed.
func (t *Task) Resume() {
	if t.slot {
		t.s.sem <- struct{}{}
	}
	if t.baton != nil {
		t.baton <- struct{}{}
	}
}

// takeLocked returns the queued batches when no task is running.
func (s *Scheduler) takeLocked() []Batch {
	if s.active > 0 || len(s.pending) == 0 {
		return nil
	}
	b := s.pending
	s.pending = nil
	s.boundLocked()
	s.active += len(b) // each batch runs as a task
	return b
}

// start runs each batch in its own task.
func (s *Scheduler) start(batches []Batch) {
	for _, b := range batches {
		t := &Task{s: s, gen: s.gen.Load()}
		go func() {
			t.Acquire()
			defer t.Done()
			b.Dispatch(t.Context(s.ctx))
		}()
	}
}

// Local returns the value kept under key for the scheduler's request,
// made by make on first use: a loader that must live as long as the
// request and no longer (package relay's node loaders). Reset and
// ClearLocals forget every value.
func (s *Scheduler) Local(key any, make func() any) any {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.locals[key]; ok {
		return v
	}
	if s.locals == nil {
		s.locals = map[any]any{}
	}
	v := make()
	s.locals[key] = v
	return v
}

// ClearLocals forgets the values of Local, when the request ends, so a
// pooled scheduler does not keep them alive until its next request.
func (s *Scheduler) ClearLocals() {
	s.mu.Lock()
	s.locals = nil
	s.mu.Unlock()
}
