//go:build unix && !linux

package transport

import "syscall"

// sendNow writes b to the non-blocking socket fd with one write(2).
func sendNow(fd uintptr, b []byte) (int, error) { return syscall.Write(int(fd), b) }
