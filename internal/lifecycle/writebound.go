package lifecycle

import (
	"errors"
	"net"
	"sync/atomic"
	"time"
)

// BoundWrites returns ln with every accepted connection bounding its
// writes: a write blocked for longer than timeout fails, and net/http then
// closes the connection. It stands in for http.Server.WriteTimeout at a
// fraction of its cost: the server sets a write deadline on every request
// (a runtime timer moved each time), while a bound connection renews its
// deadline only when less than seven eighths of timeout is left, so a
// stream of quick requests on one connection moves the timer about once
// per timeout/8. A write may therefore fail after between 7/8 of timeout
// and timeout.
//
// The bound covers writes, not the handler: a handler slower than timeout
// whose writes are quick still answers (an execution timeout bounds the
// handler). A deadline set explicitly (http.ResponseController's
// SetWriteDeadline) holds until it is cleared with the zero time, which
// returns the connection to the bound; clearing while bound keeps the
// bound (net/http clears after every request). SetDeadline, which net/http
// calls when a handler hijacks the connection, hands the deadlines to the
// caller for good.
//
// ln's connections must be plain ones: net/http recognises TLS by the
// connection's type, which a wrapper hides.
func BoundWrites(ln net.Listener, timeout time.Duration) net.Listener {
	return boundListener{Listener: ln, timeout: timeout}
}

type boundListener struct {
	net.Listener
	timeout time.Duration
}

func (l boundListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return newBoundConn(c, l.timeout, time.Now), nil
}

// The modes of a bound connection.
const (
	modeBound    int32 = iota // Write keeps a deadline of about timeout
	modeExplicit              // a deadline set by the caller holds
	modeOwned                 // SetDeadline was called: every call passes through
)

type boundConn struct {
	net.Conn
	timeout time.Duration
	renew   int64 // renew when less than this is left (nanoseconds)
	now     func() time.Time
	mode    atomic.Int32
	until   atomic.Int64 // the bound deadline in Unix nanoseconds; 0: none set
}

func newBoundConn(c net.Conn, timeout time.Duration, now func() time.Time) *boundConn {
	return &boundConn{Conn: c, timeout: timeout, renew: int64(timeout - timeout/8), now: now}
}

func (c *boundConn) Write(p []byte) (int, error) {
	if c.mode.Load() == modeBound {
		now := c.now()
		if c.until.Load()-now.UnixNano() < c.renew {
			dl := now.Add(c.timeout)
			if err := c.Conn.SetWriteDeadline(dl); err != nil {
				return 0, err
			}
			c.until.Store(dl.UnixNano())
		}
	}
	return c.Conn.Write(p)
}

func (c *boundConn) SetWriteDeadline(t time.Time) error {
	switch c.mode.Load() {
	case modeOwned:
		return c.Conn.SetWriteDeadline(t)
	case modeBound:
		if t.IsZero() {
			return nil // the bound stays
		}
		c.mode.Store(modeExplicit)
		return c.Conn.SetWriteDeadline(t)
	}
	if t.IsZero() {
		// Back to the bound; the next write sets it.
		c.until.Store(0)
		c.mode.Store(modeBound)
	}
	return c.Conn.SetWriteDeadline(t)
}

func (c *boundConn) SetDeadline(t time.Time) error {
	c.mode.Store(modeOwned)
	return c.Conn.SetDeadline(t)
}

// PlainConn returns the connection c wraps: c reads through it unchanged,
// so a transport may wait for input on its socket (package poll).
func (c *boundConn) PlainConn() net.Conn { return c.Conn }

// CloseWrite shuts down the writing side of a TCP connection: net/http
// does so before closing a connection whose request body it did not read,
// so the client reads the answer rather than a reset.
func (c *boundConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return errors.ErrUnsupported
}
