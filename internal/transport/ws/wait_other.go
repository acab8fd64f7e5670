//go:build !unix

package ws

import "net"

// readyFunc returns nil: the connection's reader waits in its read.
func readyFunc(net.Conn) func() error { return nil }
