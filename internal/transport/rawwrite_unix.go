//go:build unix

package transport

import (
	"io"
	"net"
	"runtime"
	"sync/atomic"
	"syscall"

	"github.com/graftgql/graft/internal/transport/poll"
)

// RawWriter writes to a plain socket without waiting for it: what the
// socket's send buffer takes at once, in one system call (send(2) on
// Linux), with no deadline to set. A client that keeps up takes every
// event this way; one that does not is written to with a deadline by a
// goroutine that waits.
//
// It keeps the socket's descriptor number, read once, and writes to it
// directly: a delivery to thousands of sockets then reads nothing of
// the net.Conn behind each (its descriptor's reference count, which
// net.Conn's RawConn.Control takes and gives back, is two more cache
// misses an event). The number stays the socket's only while the
// connection is open, so the connection must be closed through Close,
// which stops the writer first; closed any other way, a later TryWrite
// could write to a socket opened since under the same number.
//
// Calls to TryWrite must not overlap.
type RawWriter struct {
	fd int32
	// state is rawIdle, rawWriting while TryWrite writes, or rawClosed:
	// also the zero RawWriter's, and one with no socket to write.
	state atomic.Int32
}

const (
	rawClosed int32 = iota
	rawIdle
	rawWriting
)

// NewRawWriter returns the RawWriter of conn, a plain socket (or a
// poll.Wrapper of one), or nil for any other connection (TLS, a pipe).
func NewRawWriter(conn net.Conn) *RawWriter {
	w := new(RawWriter)
	if !w.Init(conn) {
		return nil
	}
	return w
}

// Init makes w the RawWriter of conn, as NewRawWriter does, for a w held
// in place (not copied afterwards), and reports false for a connection
// that is not a plain socket. Either way conn must then be closed with
// w.Close.
func (w *RawWriter) Init(conn net.Conn) bool {
	raw := poll.RawConn(conn)
	if raw == nil {
		return false
	}
	fd := -1
	if raw.Control(func(s uintptr) { fd = int(s) }) != nil || fd < 0 || fd > 1<<31-1 {
		return false
	}
	w.fd = int32(fd)
	w.state.Store(rawIdle)
	return true
}

// TryWrite writes as much of b as the socket takes now and returns how
// much; err reports a failed socket, or net.ErrClosed once Close has
// begun. It never waits: n short of len(b) with no error means the client
// is behind.
//
// The write that finishes a frame for a client behind (a net.Conn Write,
// with its deadline) does not overlap it.
func (w *RawWriter) TryWrite(b []byte) (n int, err error) {
	if !w.state.CompareAndSwap(rawIdle, rawWriting) {
		return 0, net.ErrClosed
	}
	defer w.state.Store(rawIdle)
	for n < len(b) {
		m, e := sendNow(uintptr(w.fd), b[n:])
		switch {
		case e == syscall.EINTR:
			continue
		case e == syscall.EAGAIN:
			return n, nil
		case e != nil:
			return n, e
		case m <= 0:
			return n, io.ErrShortWrite
		}
		n += m
	}
	return n, nil
}

// Close stops w, waiting for a TryWrite under way (one system call that
// does not block), and closes conn, its connection: every later TryWrite
// fails. Close may be called more than once, from any goroutine.
func (w *RawWriter) Close(conn net.Conn) error {
	for !w.state.CompareAndSwap(rawIdle, rawClosed) && w.state.Load() != rawClosed {
		runtime.Gosched()
	}
	return conn.Close()
}
