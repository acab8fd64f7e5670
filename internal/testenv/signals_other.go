//go:build !unix

package testenv

import "syscall"

// Processes cannot be paused by a signal here: Pause and Resume fail (no
// redis-server runs here either, and its tests skip).
const (
	sigStop = syscall.Signal(0x13)
	sigCont = syscall.Signal(0x12)
)
