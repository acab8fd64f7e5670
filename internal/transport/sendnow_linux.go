//go:build linux && !386

package transport

import (
	"syscall"
	"unsafe"
)

// sendNow writes b (not empty) to the non-blocking socket fd with one
// send(2). It is a raw system call: the socket never blocks, so the
// goroutine keeps its P instead of entering and leaving a system call,
// and the runtime's monitor has no P in a system call to take back and
// hand to another thread while a worker writes event after event. send(2)
// rather than write(2) also skips the file-write path a socket does not
// need. MSG_NOSIGNAL: a peer gone is an EPIPE, not a signal.
func sendNow(fd uintptr, b []byte) (int, error) {
	n, _, e := syscall.RawSyscall6(syscall.SYS_SENDTO, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)),
		syscall.MSG_NOSIGNAL|syscall.MSG_DONTWAIT, 0, 0)
	if e != 0 {
		return int(n), e
	}
	return int(n), nil
}
