//go:build linux

package main

import (
	"errors"
	"net"
	"os"
	"sync"
	"syscall"
)

// reactor reads every subscriber's socket on one goroutine, with epoll
// (-reactor): a batch of ready sockets per wake-up, one read each, and no
// goroutine to wake per event. With a goroutine per subscriber, the
// client, on its one CPU, is busy most of the time graft delivers and can
// bound the throughput measured; the reactor takes about a third less
// CPU. It then sleeps more often, though, and on loopback the server's
// send pays for the client's wake-up: graft's CPU per event rises.
type reactor struct {
	ep   int
	stop int // an eventfd in the set: written to stop the loop
	done chan struct{}

	mu    sync.Mutex
	conns map[int32]*reactorConn
	once  sync.Once
}

// reactorConn is a subscriber's socket, taken out of Go's poller.
type reactorConn struct {
	r     *reactor
	f     *os.File // holds the descriptor open
	fd    int
	p     streamParser
	ended bool
}

func newReactor() *reactor {
	ep, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil
	}
	efd, _, errno := syscall.Syscall(syscall.SYS_EVENTFD2, 0, syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if errno != 0 {
		syscall.Close(ep)
		return nil
	}
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(efd)}
	if syscall.EpollCtl(ep, syscall.EPOLL_CTL_ADD, int(efd), &ev) != nil {
		syscall.Close(ep)
		syscall.Close(int(efd))
		return nil
	}
	r := &reactor{ep: ep, stop: int(efd), done: make(chan struct{}), conns: map[int32]*reactorConn{}}
	go r.loop()
	return r
}

// adopt takes c, whose handshake is done, over: early is what was read
// of it past the handshake, p parses its stream. c is closed (the
// reactor reads a duplicate of its descriptor).
func (r *reactor) adopt(c net.Conn, early []byte, p streamParser) (subscriber, error) {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		c.Close()
		return nil, errors.New("not a TCP connection")
	}
	f, err := tc.File()
	c.Close()
	if err != nil {
		return nil, err
	}
	rc := &reactorConn{r: r, f: f, fd: int(f.Fd()), p: p}
	if err := syscall.SetNonblock(rc.fd, true); err != nil {
		f.Close()
		return nil, err
	}
	if len(early) > 0 && !p.feed(early) {
		rc.ended = true
	}
	r.mu.Lock()
	r.conns[int32(rc.fd)] = rc
	r.mu.Unlock()
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLRDHUP, Fd: int32(rc.fd)}
	if err := syscall.EpollCtl(r.ep, syscall.EPOLL_CTL_ADD, rc.fd, &ev); err != nil {
		f.Close()
		return nil, err
	}
	return rc, nil
}

// pong writes a pong frame to the socket (small: the send buffer takes it).
func (rc *reactorConn) pong(frame []byte) { _, _ = syscall.Write(rc.fd, frame) }

func (r *reactor) loop() {
	defer close(r.done)
	events := make([]syscall.EpollEvent, 256)
	buf := make([]byte, 64<<10)
	for {
		n, err := syscall.EpollWait(r.ep, events, -1)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return
		}
		r.mu.Lock()
		for _, ev := range events[:n] {
			if int(ev.Fd) == r.stop {
				r.mu.Unlock()
				return
			}
			rc := r.conns[ev.Fd]
			if rc == nil || rc.ended {
				continue
			}
			m, err := syscall.Read(rc.fd, buf)
			switch {
			case m > 0:
				if !rc.p.feed(buf[:m]) {
					rc.end()
				}
			case err == syscall.EAGAIN || err == syscall.EINTR:
			default:
				rc.end()
			}
		}
		r.mu.Unlock()
	}
}

// end stops reading rc; r.mu is held.
func (rc *reactorConn) end() {
	rc.ended = true
	_ = syscall.EpollCtl(rc.r.ep, syscall.EPOLL_CTL_DEL, rc.fd, nil)
}

// close stops the reactor (once, for all its subscribers) and closes the
// socket.
func (rc *reactorConn) close() {
	r := rc.r
	r.once.Do(func() {
		var one [8]byte
		one[0] = 1
		_, _ = syscall.Write(r.stop, one[:])
		<-r.done
		syscall.Close(r.ep)
		syscall.Close(r.stop)
	})
	rc.f.Close()
}

// newReactorOK reports whether the reactor can run here.
func newReactorOK() bool { return true }
