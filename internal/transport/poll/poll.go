// Package poll waits for input on many idle sockets with no goroutine per
// socket. A streaming transport's idle connection (a WebSocket or an
// event stream with nothing to read) would otherwise keep a goroutine
// blocked in its read: at least 2 KiB of stack and the goroutine itself,
// for as long as the client stays. Here one goroutine per process waits
// for every registered socket (epoll on Linux, itself waited for through
// the runtime's poller) and starts a goroutine for a socket only when it
// has input, an end of input or an error.
//
// The owner of a socket reads it on a goroutine of its own until it has
// nothing buffered, then calls Arm and returns; wake runs on a new
// goroutine when the socket is ready, and the owner reads again. Where
// this is not supported (not Linux, a TLS connection, whose buffered
// input the socket no longer shows) Watch returns nil and the owner
// keeps a reader goroutine.
package poll

import "net"

// Handle is a socket registered with Watch.
type Handle struct {
	handle
}

// Wrapper is a connection that wraps another without buffering or
// changing what is read (the listener wrappers of graft's server): Watch
// watches the connection it wraps. A TLS connection is not one.
type Wrapper interface {
	PlainConn() net.Conn
}

// Unwrap returns the connection conn wraps through Wrapper, or conn.
func Unwrap(conn net.Conn) net.Conn {
	for {
		w, ok := conn.(Wrapper)
		if !ok {
			return conn
		}
		conn = w.PlainConn()
	}
}

// Watch registers conn, a plain socket (*net.TCPConn or *net.UnixConn,
// or a Wrapper of one),
// whose owner calls Arm when it waits for input: wake then runs on a new
// goroutine once the socket has input, an end of input or an error, or is
// closed (Closed). It returns nil when conn cannot be watched; the owner
// then waits in its reads.
func Watch(conn net.Conn, wake func()) *Handle {
	return watch(conn, wake)
}

// Supported reports whether sockets can be watched on this platform.
func Supported() bool { return supported() }

// Arm waits for input: wake runs once the socket is ready. Between
// calls, the owner reads. It reports false when the socket cannot be
// waited for (it is closed, or the registration failed): the owner then
// reads at once, and its read blocks or reports why.
func (h *Handle) Arm() bool { return h.arm() }

// Closed tells h that its socket was closed by its owner: an armed
// handle wakes, so that the owner's read reports the end. Close the
// socket first.
func (h *Handle) Closed() { h.closed() }

// Stop ends the registration once the owner is done with the socket;
// wake is not called after it returns, unless it already runs.
func (h *Handle) Stop() { h.stop() }
