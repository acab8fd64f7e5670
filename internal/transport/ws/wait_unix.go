//go:build unix

package ws

import (
	"net"
	"syscall"

	"github.com/graftgql/graft/internal/transport/poll"
)

// readyFunc returns a func that waits until conn has input (or is closed
// or failed), without reading it, or nil when conn is not a plain socket
// (a TLS connection holds input the socket no longer shows). Its test is
// TestSeamWebSocketAccept.
func readyFunc(conn net.Conn) func() error {
	raw := poll.RawConn(conn)
	if raw == nil {
		return nil
	}
	return func() error { return raw.Read(peek) }
}

// peek reports whether the socket fd has input, an end of input or an
// error to report, looking at one byte without taking it. The socket is
// non-blocking: with nothing to read, the runtime's poller waits for it.
func peek(fd uintptr) bool {
	var b [1]byte
	for {
		_, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK)
		if err == syscall.EINTR {
			continue
		}
		return err != syscall.EAGAIN && err != syscall.EWOULDBLOCK
	}
}
