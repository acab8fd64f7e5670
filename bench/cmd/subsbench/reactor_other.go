//go:build !linux

package main

import "net"

// reactor is Linux's (epoll); elsewhere each subscriber reads on a
// goroutine of its own.
type reactor struct{}

func newReactor() *reactor { return nil }

func (r *reactor) adopt(net.Conn, []byte, streamParser) (subscriber, error) {
	panic("no reactor on this platform")
}

// pong is never called here.
func (rc *reactorConn) pong([]byte) {}

type reactorConn struct{}

func (rc *reactorConn) close() {}

func newReactorOK() bool { return false }
