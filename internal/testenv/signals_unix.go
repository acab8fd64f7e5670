//go:build unix

package testenv

import "syscall"

// The signals that pause and resume a redis-server.
const (
	sigStop = syscall.SIGSTOP
	sigCont = syscall.SIGCONT
)
