//go:build unix && (!linux || 386)

package transport

import "syscall"

// sendNow writes b to the non-blocking socket fd with one write(2)
// (linux/386 has no send system call of its own: send goes through
// socketcall there).
func sendNow(fd uintptr, b []byte) (int, error) { return syscall.Write(int(fd), b) }
