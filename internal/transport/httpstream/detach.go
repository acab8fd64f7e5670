package httpstream

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/graftgql/graft/internal/prefetch"
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
	// it within the write timeout. Calls never overlap (with WriteRaw
	// and TryWrite either).
	Write(chunks ...[]byte) error
	// TryWrite writes as much of b, a piece of the body already framed
	// as one chunk of a chunked HTTP/1.1 body, as the connection takes
	// without waiting, and returns how much (0 and no error where the
	// connection cannot be written without waiting).
	TryWrite(b []byte) (int, error)
	// WriteRaw writes b, framed as for TryWrite, within the write
	// timeout.
	WriteRaw(b []byte) error
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
//
// The fields an event's delivery reads and writes come first, in its
// first 112 bytes: with the size class of 192 bytes, a multiple of 64,
// they are two cache lines, which a publish to thousands of streams reads
// from memory for each.
type detached struct {
	d      Detached
	framed transport.FramedDrainer // op's, when it frames its events
	f      *Format
	h      *transport.Hub

	wmu    sync.Mutex // one write at a time
	failed bool       // a write failed; guarded by wmu
	// waiting says the delivery runs on a goroutine of its own, and
	// its writes may wait. Owned by the delivery.
	waiting bool
	// beatDue says a heartbeat waits for the delivery to write it.
	beatDue atomic.Bool

	rounds transport.Rounds // of its delivery on the hub's workers

	// rest is what a write that could not wait left unwritten, and
	// restHeld its bytes held in the budget: the delivery goes on on a
	// goroutine that waits (see deliver). Owned by the delivery.
	rest     []byte
	restHeld int

	op   transport.Operation
	ctx  context.Context // the operation's
	stop func(cause error)
	// beats is the heartbeat clock (nil: none), ticket this stream's
	// next heartbeat in it.
	beats  *transport.Clock[*detached]
	ticket atomic.Uint64
	ended  atomic.Bool

	// The size class of 192 bytes, a multiple of 64: the next down, 176,
	// starts most streams in the middle of a line.
	_ [16]byte
}

// Prefetch asks for what the delivery reads (transport.Prefetcher): the
// stream's own lines, then its connection's and operation's (an
// operation that frames: the others are pumped), then what the operation
// points to. Every pointer it follows is set before the stream is first
// scheduled and never changes.
func (s *detached) Prefetch(level int) {
	switch level {
	case 0:
		prefetch.Lines(unsafe.Pointer(s), 2)
	case 1:
		if h, ok := s.d.(*hijacked); ok {
			prefetch.Line(unsafe.Pointer(h))
		}
		if s.framed != nil {
			s.framed.Prefetch(0)
		}
	default:
		if s.framed != nil {
			s.framed.Prefetch(level - 1)
		}
	}
}

// serveDetached serves op's stream on d: a push subscription with no
// goroutine while idle, any other stream (a subscription whose source
// waits on a goroutine, incremental delivery) pumped on a goroutine of
// its own as Serve does.
func serveDetached(d Detached, f *Format, h *transport.Hub, keepAlive time.Duration, op transport.Operation, ctx context.Context, stop func(error)) {
	s := &detached{d: d, f: f, h: h, op: op, ctx: ctx, stop: stop}
	s.framed, _ = op.(transport.FramedDrainer)
	if keepAlive > 0 && f.Heartbeat != nil {
		s.beats = heartbeats(keepAlive)
	}
	if s.write(f.Open) != nil {
		stop(transport.ErrClientGone)
	}
	gone := func() { stop(transport.ErrClientGone) }
	// Tracked before its events may end it (Watch).
	tracked := h.Track(s)
	if !op.Watch(s) {
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
					body, held := h.Hold(body)
					defer h.Release(held)
					return s.write(f.Before, body, f.After)
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

// Notify is the operation's notice of news (events, or the end of its
// stream): the stream's delivery is scheduled on the hub's workers unless
// it is already. It must not block.
func (s *detached) Notify() { s.rounds.Schedule(s.h, s) }

// Run delivers on one of the hub's workers (transport.Task): it writes
// the events waiting without waiting for the client, and hands the
// stream to a goroutine of its own once the client is behind.
func (s *detached) Run() { s.deliver(false) }

// deliver writes the events waiting, and returns once there are none: an
// idle stream has no goroutine. wait says it runs on a goroutine of its
// own and may wait for the client, within the write timeout; otherwise
// it runs on a worker, and goes on on a new goroutine when a write could
// not complete at once. Once the stream has ended it completes.
func (s *detached) deliver(wait bool) {
	for {
		if wait && s.rest != nil {
			err := s.writeRaw(s.rest)
			s.h.Release(s.restHeld)
			s.rest, s.restHeld = nil, 0
			if err != nil {
				s.stop(transport.ErrClientGone)
			}
		}
		s.waiting = wait
		if s.beatDue.Swap(false) && s.rest == nil {
			if wait {
				if s.writeRaw(s.f.heartbeatChunk()) != nil {
					s.stop(transport.ErrClientGone)
				}
			} else if s.tryWrite(s.f.heartbeatChunk(), 0) == transport.ErrPause {
				go s.deliver(true)
				return
			}
		}
		var ended bool
		if s.framed != nil {
			ended = s.framed.DrainFramed(s.f, s)
		} else {
			var buf []byte
			ended = s.op.Drain(func(body []byte) error {
				buf = s.f.chunk(buf[:0], body)
				return s.Send(buf)
			})
		}
		if ended {
			if wait {
				s.finish()
			} else {
				go s.finish() // its complete may wait for the client
			}
			return
		}
		if s.rest != nil {
			go s.deliver(true)
			return
		}
		if !s.rounds.Again() {
			return
		}
	}
}

// Frame frames a payload as a chunk of the body (transport.Framing).
func (s *detached) Frame(dst, payload []byte) []byte { return s.f.chunk(dst, payload) }

// Send writes one event's chunk (transport.Framing): on a worker without
// waiting, on the delivery's own goroutine within the write timeout.
func (s *detached) Send(framed []byte) error {
	if s.waiting {
		return s.sendFramed(framed)
	}
	return s.tryFramed(framed)
}

// tryFramed writes framed, one event's chunk, without waiting: held in
// the hub's budget until written (the SERVER_BUSY answer goes in its
// place when the budget cannot hold it). What the client cannot take at
// once is kept, held, in rest, and the delivery pauses.
func (s *detached) tryFramed(framed []byte) error {
	framed, held := s.hold(framed)
	return s.tryWrite(framed, held)
}

// tryWrite writes framed without waiting; held is what it holds in the
// hub's budget, given back once written.
func (s *detached) tryWrite(framed []byte, held int) error {
	if !s.wmu.TryLock() {
		// Another write is under way: the delivery goes on after it.
		s.rest, s.restHeld = append(s.rest[:0], framed...), held
		return transport.ErrPause
	}
	if s.failed {
		s.wmu.Unlock()
		s.h.Release(held)
		return transport.ErrClientGone
	}
	n, err := s.d.TryWrite(framed)
	if err != nil {
		s.failed = true
	}
	s.wmu.Unlock()
	if err != nil {
		s.h.Release(held)
		s.stop(transport.ErrClientGone)
		return err
	}
	if n == len(framed) {
		s.h.Release(held)
		return nil
	}
	s.rest, s.restHeld = append(s.rest[:0], framed[n:]...), held
	return transport.ErrPause
}

// sendFramed writes framed within the write timeout, held in the hub's
// budget until written.
func (s *detached) sendFramed(framed []byte) error {
	framed, held := s.hold(framed)
	defer s.h.Release(held)
	if err := s.writeRaw(framed); err != nil {
		s.stop(transport.ErrClientGone)
		return err
	}
	return nil
}

// hold reserves framed in the hub's budget and returns what to write:
// framed, or the SERVER_BUSY answer framed in its place.
func (s *detached) hold(framed []byte) ([]byte, int) {
	send, held := s.h.Hold(framed)
	if len(send) != len(framed) || len(send) > 0 && &send[0] != &framed[0] {
		send = s.f.chunk(nil, send)
	}
	return send, held
}

// writeRaw writes framed bytes within the write timeout, and fails at
// once after a failure.
func (s *detached) writeRaw(b []byte) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.failed {
		return transport.ErrClientGone
	}
	if err := s.d.WriteRaw(b); err != nil {
		s.failed = true
		return err
	}
	return nil
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

// beat schedules a heartbeat, written by the stream's delivery, and the
// next one. It runs in the clock's goroutine.
func (s *detached) beat() {
	if s.ended.Load() {
		return
	}
	s.ticket.Store(s.beats.Add(s))
	s.beatDue.Store(true)
	s.Notify()
}

// heartbeatChunks holds each format's heartbeat framed as a chunk.
var heartbeatChunks sync.Map // *Format → []byte

func (f *Format) heartbeatChunk() []byte {
	if b, ok := heartbeatChunks.Load(f); ok {
		return b.([]byte)
	}
	b, _ := heartbeatChunks.LoadOrStore(f, appendChunk(nil, f.Heartbeat))
	return b.([]byte)
}
