// Package accesslog writes access-log lines fast: a buffered, bounded
// Writer that batches lines into few system calls, and a slog.Handler
// whose Log formats a request's Entry without allocating.
//
// graft's Config.AccessLog takes any *slog.Logger; one built on a Handler
// from this package takes the fast path (Handler.Log) and costs a request
// no allocation. The ready-to-run server cmd/graft logs this way.
//
// # The Writer's policy
//
// Lines are appended to a buffer of WriterOptions.BufferBytes and written
// to the sink in one call when the buffer is full, every
// WriterOptions.FlushInterval, on Flush and on Close. While one buffer is
// being written, lines go to a second one; the Writer holds at most two
// buffers. When both are full (the sink cannot keep up), a line is
// dropped and counted (Dropped), and the request that logged it never
// waits for the sink. A line longer than the buffer is dropped the same
// way. A Handler over a Writer flushes it after each record at
// slog.LevelWarn or above, so warnings and errors reach the sink at once. Close writes every line buffered before it returns, so nothing
// accepted is lost on a graceful shutdown; lines written after Close go
// to the sink directly.
package accesslog

import (
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of WriterOptions.
const (
	DefaultBufferBytes   = 64 << 10
	DefaultFlushInterval = 100 * time.Millisecond
)

// ErrDropped is returned by Writer.Write for a line it dropped: the sink
// could not keep up, or the line is longer than the buffer.
var ErrDropped = errors.New("accesslog: line dropped (the sink cannot keep up)")

// WriterOptions configures a Writer. The zero value uses the defaults.
type WriterOptions struct {
	// BufferBytes is the size of each of the Writer's two buffers
	// (DefaultBufferBytes when 0).
	BufferBytes int
	// FlushInterval is how often buffered lines are written when the
	// buffer does not fill (DefaultFlushInterval when 0).
	FlushInterval time.Duration
}

// Writer is a buffered, bounded io.Writer for log lines; see the package
// comment for its policy. Each Write must hold whole lines, which are
// never split between two writes to the sink. Safe for concurrent use.
type Writer struct {
	out  io.Writer
	size int

	mu   sync.Mutex
	idle *sync.Cond // signalled when spare comes back
	cur  []byte     // the buffer lines are appended to
	// spare is the other buffer, nil while it is being written: whoever
	// takes it (the flusher, Flush, Close) is the only one writing to
	// out, so batches reach the sink in order.
	spare  []byte
	closed bool
	err    error // the sink's last error

	work      chan []byte // a full buffer for the flusher
	quit      chan struct{}
	closeOnce sync.Once
	stopped   chan struct{}
	dropped   atomic.Uint64
}

// NewWriter returns a Writer over out and starts its flusher; Close
// stops it.
func NewWriter(out io.Writer, o WriterOptions) *Writer {
	if o.BufferBytes <= 0 {
		o.BufferBytes = DefaultBufferBytes
	}
	if o.FlushInterval <= 0 {
		o.FlushInterval = DefaultFlushInterval
	}
	w := &Writer{
		out: out, size: o.BufferBytes,
		cur:   make([]byte, 0, o.BufferBytes),
		spare: make([]byte, 0, o.BufferBytes),
		work:  make(chan []byte, 1), quit: make(chan struct{}), stopped: make(chan struct{}),
	}
	w.idle = sync.NewCond(&w.mu)
	go w.flusher(o.FlushInterval)
	return w
}

// Write appends p, whole lines, to the buffer. It returns ErrDropped when
// it dropped p (see the package comment); after Close it writes p to the
// sink directly.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	if !w.reserve(len(p)) {
		if w.closed {
			defer w.mu.Unlock()
			return w.out.Write(p)
		}
		w.mu.Unlock()
		w.dropped.Add(1)
		return 0, ErrDropped
	}
	w.cur = append(w.cur, p...)
	w.mu.Unlock()
	return len(p), nil
}

// reserve makes room for n bytes in cur, handing a full buffer to the
// flusher when the other one is free. It reports false when there is no
// room (or the Writer is closed). w.mu is held.
func (w *Writer) reserve(n int) bool {
	if w.closed || n > w.size {
		return false
	}
	if len(w.cur)+n <= w.size {
		return true
	}
	if w.spare == nil {
		return false
	}
	full := w.cur
	w.cur, w.spare = w.spare, nil
	w.work <- full // never blocks: the flusher is idle while spare is free
	return true
}

// appendLine appends the line format appends to w's buffer, formatting it
// in place, and reports false when it dropped it; at most max bytes are
// reserved for it.
func (w *Writer) appendLine(max int, format func([]byte) []byte) bool {
	w.mu.Lock()
	if !w.reserve(max) {
		if w.closed {
			b := format(make([]byte, 0, max))
			_, _ = w.out.Write(b)
			w.mu.Unlock()
			return true
		}
		w.mu.Unlock()
		w.dropped.Add(1)
		return false
	}
	n := len(w.cur)
	w.cur = format(w.cur)
	if len(w.cur) > w.size {
		// Longer than reserved and past the bound: drop it.
		w.cur = w.cur[:n]
		w.mu.Unlock()
		w.dropped.Add(1)
		return false
	}
	w.mu.Unlock()
	return true
}

// flusher writes the buffers handed to it, and every interval the lines
// buffered so far.
func (w *Writer) flusher(interval time.Duration) {
	defer close(w.stopped)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case b := <-w.work:
			w.writeOut(b)
		case <-t.C:
			w.mu.Lock()
			var b []byte
			if len(w.cur) > 0 && w.spare != nil {
				b = w.cur
				w.cur, w.spare = w.spare, nil
			}
			w.mu.Unlock()
			if b != nil {
				w.writeOut(b)
			}
		case <-w.quit:
			return
		}
	}
}

// writeOut writes the batch b to the sink and gives its buffer back.
func (w *Writer) writeOut(b []byte) {
	_, err := w.out.Write(b)
	w.mu.Lock()
	if err != nil {
		w.err = err
	}
	w.spare = b[:0]
	w.idle.Broadcast()
	w.mu.Unlock()
}

// takeSpare waits until no batch is being written, writing a full buffer
// the flusher has not taken yet itself (the flusher may have stopped).
// w.mu is held, and released while writing or waiting.
func (w *Writer) takeSpare() {
	for w.spare == nil {
		select {
		case b := <-w.work:
			w.mu.Unlock()
			w.writeOut(b)
			w.mu.Lock()
		default:
			w.idle.Wait()
		}
	}
}

// Flush writes every line buffered so far to the sink before it returns,
// and reports the sink's last error.
func (w *Writer) Flush() error {
	w.mu.Lock()
	w.takeSpare()
	var b []byte
	if len(w.cur) > 0 {
		b = w.cur
		w.cur, w.spare = w.spare, nil
	}
	w.mu.Unlock()
	if b != nil {
		w.writeOut(b)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Close stops the flusher and writes every buffered line before it
// returns. Lines written later go to the sink directly. Close does not
// close the sink.
func (w *Writer) Close() error {
	w.closeOnce.Do(func() {
		close(w.quit)
		<-w.stopped
		w.mu.Lock()
		defer w.mu.Unlock()
		w.takeSpare()
		w.closed = true
		if len(w.cur) > 0 {
			if _, err := w.out.Write(w.cur); err != nil {
				w.err = err
			}
			w.cur = w.cur[:0]
		}
	})
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Dropped returns the number of lines dropped so far.
func (w *Writer) Dropped() uint64 { return w.dropped.Load() }
