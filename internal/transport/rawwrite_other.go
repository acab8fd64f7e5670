//go:build !unix

package transport

import "net"

// RawWriter writes to a plain socket without waiting for it; there is
// none on this platform (NewRawWriter returns nil).
type RawWriter struct{}

// NewRawWriter returns nil here: every write waits, within its deadline.
func NewRawWriter(net.Conn) *RawWriter { return nil }

// Init reports false here.
func (w *RawWriter) Init(net.Conn) bool { return false }

// TryWrite is never called on this platform.
func (w *RawWriter) TryWrite(b []byte) (int, error) { return 0, net.ErrClosed }

// Close closes conn.
func (w *RawWriter) Close(conn net.Conn) error { return conn.Close() }
