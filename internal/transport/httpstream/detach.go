package httpstream

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/graftgql/graft/internal/transport"
)

// Detached is the connection of a stream that its host has taken over
// from its HTTP server (net/http's Hijack) and written the stream's head
// to. The stream is then served with no goroutine while it is idle: a
// push subscription's events are written as they come (Operation.Watch),
// heartbeats from one clock for every stream, and the client's leaving is
// noticed by the process's poller (Wait).
type Detached interface {
	// Write writes chunks as one piece of the response body and flushes
	// it within the write timeout. Calls never overlap.
	Write(chunks ...[]byte) error
	// Wait calls gone, on a new goroutine, once the client sends
	// anything or goes away, and reports whether it can wait for that.
	Wait(gone func()) bool
	// Close ends the response body when complete is set, and closes the
	// connection.
	Close(complete bool)
}

// clocks holds the heartbeat clock of each keep-alive interval.
var clocks sync.Map // time.Duration → *transport.Clock[*detached]

func heartbeats(every time.Duration) *transport.Clock[*detached] {
	if k, ok := clocks.Load(every); ok {
		return k.(*transport.Clock[*detached])
	}
	k, _ := clocks.LoadOrStore(every, transport.NewClock(every, (*detached).beat))
	return k.(*transport.Clock[*detached])
}

// detached is a stream served on a Detached connection.
type detached struct {
	d    Detached
	f    *Format
	h    *transport.Hub
	op   transport.Operation
	ctx  context.Context // the operation's
	stop func(cause error)
	// beats is the heartbeat clock (nil: none), ticket this stream's
	// next heartbeat in it.
	beats  *transport.Clock[*detached]
	ticket atomic.Uint64
	ended  atomic.Bool

	wmu    sync.Mutex // one write at a time
	failed bool       // a write failed; guarded by wmu

	mu       sync.Mutex
	draining bool // a drain goroutine runs
	pending  bool // news arrived while it ran
}

// serveDetached serves op's stream on d: a push subscription with no
// goroutine while idle, any other stream (a subscription whose source
// waits on a goroutine, incremental delivery) pumped on a goroutine of
// its own as Serve does.
func serveDetached(d Detached, f *Format, h *transport.Hub, keepAlive time.Duration, op transport.Operation, ctx context.Context, stop func(error)) {
	s := &detached{d: d, f: f, h: h, op: op, ctx: ctx, stop: stop}
	if keepAlive > 0 && f.Heartbeat != nil {
		s.beats = heartbeats(keepAlive)
	}
	if s.write(f.Open) != nil {
		stop(transport.ErrClientGone)
	}
	gone := func() { stop(transport.ErrClientGone) }
	// Tracked before its events may end it (Watch).
	tracked := h.Track(s)
	if !op.Watch(s.schedule) {
		if tracked {
			h.Untrack(s) // pump watches for shutdown itself
		}
		go func() {
			if !d.Wait(gone) {
				gone()
			}
			defer stop(nil)
			defer h.ReleaseSub()
			complete := pump(ctx, h, keepAlive, op, stop,
				func(body []byte) error {
					body, release := h.Hold(body)
					defer release()
					return s.write(f.Payload(body)...)
				},
				func() error { return s.write(f.Heartbeat) })
			if complete {
				complete = s.write(f.Complete) == nil
			}
			d.Close(complete)
		}()
		return
	}
	if !tracked {
		stop(transport.ErrShutdown)
	}
	if s.beats != nil {
		s.ticket.Store(s.beats.Add(s))
	}
	if !d.Wait(gone) {
		gone()
	}
}

// Shutdown is the hub's notice of shutdown: the stream completes. It
// runs with the hub locked, which stop takes.
func (s *detached) Shutdown() { go s.stop(transport.ErrShutdown) }

// write writes chunks, and fails at once after a failure.
func (s *detached) write(chunks ...[]byte) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.failed {
		return transport.ErrClientGone
	}
	if err := s.d.Write(chunks...); err != nil {
		s.failed = true
		return err
	}
	return nil
}

// schedule is the operation's notice of news (events, or the end of its
// stream): a drain goroutine starts unless one runs. It must not block.
func (s *detached) schedule() {
	s.mu.Lock()
	if s.draining {
		s.pending = true
		s.mu.Unlock()
		return
	}
	s.draining = true
	s.mu.Unlock()
	go s.drain()
}

// drain writes the events waiting, and returns once there are none: an
// idle stream has no goroutine. Once the stream has ended it completes.
func (s *detached) drain() {
	for {
		ended := s.op.Drain(func(body []byte) error {
			body, release := s.h.Hold(body)
			defer release()
			if err := s.write(s.f.Payload(body)...); err != nil {
				s.stop(transport.ErrClientGone)
				return err
			}
			return nil
		})
		if ended {
			s.finish()
			return
		}
		s.mu.Lock()
		if !s.pending {
			s.draining = false
			s.mu.Unlock()
			return
		}
		s.pending = false
		s.mu.Unlock()
	}
}

// finish ends a push stream whose operation has ended: the stream
// completes when its source ended or the server is shutting down, and is
// dropped when the client went away.
func (s *detached) finish() {
	s.ended.Store(true)
	if s.beats != nil {
		s.beats.Remove(s, s.ticket.Load())
	}
	s.h.Untrack(s)
	cause := context.Cause(s.ctx)
	complete := cause == nil || cause == transport.ErrShutdown
	if complete {
		complete = s.write(s.f.Complete) == nil
	}
	s.d.Close(complete)
	s.h.ReleaseSub()
	s.stop(nil)
}

// beat sends a heartbeat and schedules the next one. It runs in the
// clock's goroutine.
func (s *detached) beat() {
	if s.ended.Load() {
		return
	}
	s.ticket.Store(s.beats.Add(s))
	go func() {
		if s.write(s.f.Heartbeat) != nil {
			s.stop(transport.ErrClientGone)
		}
	}()
}
