//go:build unix

package poll

import (
	"net"
	"syscall"
)

// RawConn returns the raw socket of conn, a plain socket (*net.TCPConn or
// *net.UnixConn, or a Wrapper of one), or nil for any other connection: a
// TLS connection holds input the socket no longer shows.
func RawConn(conn net.Conn) syscall.RawConn {
	var sc syscall.Conn
	switch c := Unwrap(conn).(type) {
	case *net.TCPConn:
		sc = c
	case *net.UnixConn:
		sc = c
	default:
		return nil
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	return raw
}
