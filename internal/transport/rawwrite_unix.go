//go:build unix

package transport

import (
	"io"
	"net"
	"syscall"

	"github.com/graftgql/graft/internal/transport/poll"
)

// RawWriter writes to a plain socket without waiting for it: what the
// socket's send buffer takes at once, in one system call (send(2) on
// Linux), with no deadline to set. A client that keeps up takes every
// event this way; one that does not is written to with a deadline by a
// goroutine that waits.
// Calls to TryWrite must not overlap.
type RawWriter struct {
	raw syscall.RawConn
	// write is the function handed to raw.Control, made once: it writes
	// b and leaves n and err.
	write func(fd uintptr)
	b     []byte
	n     int
	err   error
}

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
// that is not a plain socket.
func (w *RawWriter) Init(conn net.Conn) bool {
	raw := poll.RawConn(conn)
	if raw == nil {
		return false
	}
	w.raw = raw
	w.write = w.writeFD
	return true
}

// TryWrite writes as much of b as the socket takes now and returns how
// much; err reports a failed or closed socket. It never waits: n short of
// len(b) with no error means the client is behind.
//
// It writes within raw.Control, which holds the socket open for the
// call, rather than raw.Write, whose write lock and poller reset serve a
// write that waits for the socket: TryWrite does not wait, and the write
// that finishes a frame for a client behind (a net.Conn Write, with its
// deadline) does not overlap it.
func (w *RawWriter) TryWrite(b []byte) (n int, err error) {
	w.b, w.n, w.err = b, 0, nil
	cerr := w.raw.Control(w.write)
	n, err = w.n, w.err
	w.b, w.err = nil, nil
	if err == nil && cerr != nil {
		err = cerr
	}
	return n, err
}

func (w *RawWriter) writeFD(fd uintptr) {
	for w.n < len(w.b) {
		m, e := sendNow(fd, w.b[w.n:])
		switch {
		case e == syscall.EINTR:
			continue
		case e == syscall.EAGAIN:
			return
		case e != nil:
			w.err = e
			return
		case m <= 0:
			w.err = io.ErrShortWrite
			return
		}
		w.n += m
	}
}
