//go:build linux

package poll

import (
	"encoding/binary"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// The states of a handle.
const (
	reading int32 = iota // the owner reads
	armed                // waiting for the socket
	stopped
)

type handle struct {
	id   uint64
	raw  syscall.RawConn
	wake func()
	// state is reading, armed or stopped; whoever moves it from armed
	// to reading (an event, Closed) starts wake.
	state atomic.Int32
	added atomic.Bool // registered in the epoll set
}

// poller is the process's epoll set and the goroutine that waits on it,
// which runs while sockets are registered.
type poller struct {
	once sync.Once
	ok   bool
	ep   int      // the epoll set
	file *os.File // the same, non-blocking, in the runtime's poller
	rc   syscall.RawConn
	evfd int // an eventfd in the set (id 0) that wakes the goroutine

	mu      sync.Mutex
	handles map[uint64]*Handle
	next    uint64
	running bool
}

var p poller

func (p *poller) init() {
	fd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return
	}
	r, _, errno := syscall.Syscall(syscall.SYS_EVENTFD2, 0, syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if errno != 0 {
		syscall.Close(fd)
		return
	}
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN}
	if syscall.EpollCtl(fd, syscall.EPOLL_CTL_ADD, int(r), &ev) != nil || syscall.SetNonblock(fd, true) != nil {
		syscall.Close(fd)
		syscall.Close(int(r))
		return
	}
	// os.NewFile puts a non-blocking descriptor in the runtime's poller;
	// its Fd method would make it blocking again, so the number is kept.
	file := os.NewFile(uintptr(fd), "epoll")
	rc, err := file.SyscallConn()
	if err != nil {
		return
	}
	p.ep, p.file, p.rc, p.evfd = fd, file, rc, int(r)
	p.handles, p.ok = map[uint64]*Handle{}, true
}

func supported() bool {
	p.once.Do(p.init)
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ok
}

func watch(conn net.Conn, wake func()) *Handle {
	raw := RawConn(conn)
	if raw == nil {
		return nil
	}
	p.once.Do(p.init)
	h := &Handle{handle{raw: raw, wake: wake}}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.ok {
		return nil
	}
	p.next++
	h.id = p.next
	p.handles[h.id] = h
	if !p.running {
		p.running = true
		go p.loop()
	}
	return h
}

func (h *handle) arm() bool {
	if !h.state.CompareAndSwap(reading, armed) {
		return false
	}
	var err error
	// Control holds the socket open: its descriptor is not closed, or
	// reused by another socket, while the set is changed.
	cerr := h.raw.Control(func(fd uintptr) {
		ev := syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLRDHUP | syscall.EPOLLONESHOT}
		*(*uint64)(unsafe.Pointer(&ev.Fd)) = h.id
		op := syscall.EPOLL_CTL_MOD
		if !h.added.Load() {
			op = syscall.EPOLL_CTL_ADD
		}
		err = syscall.EpollCtl(p.ep, op, int(fd), &ev)
		if err == nil {
			h.added.Store(true)
		}
	})
	if cerr == nil && err == nil {
		return true
	}
	// Closed or not registered: the owner reads, unless an event or
	// Closed took the handle first and starts wake.
	return !h.state.CompareAndSwap(armed, reading)
}

func (h *handle) closed() {
	if h.state.CompareAndSwap(armed, reading) {
		go h.wake()
	}
}

func (h *handle) stop() {
	h.state.Store(stopped)
	if h.added.Load() {
		// A closed socket has left the set already.
		_ = h.raw.Control(func(fd uintptr) {
			_ = syscall.EpollCtl(p.ep, syscall.EPOLL_CTL_DEL, int(fd), nil)
		})
	}
	p.mu.Lock()
	delete(p.handles, h.id)
	last := len(p.handles) == 0
	p.mu.Unlock()
	if last {
		// The goroutine ends once nothing is registered.
		var one [8]byte
		binary.NativeEndian.PutUint64(one[:], 1)
		_, _ = syscall.Write(p.evfd, one[:])
	}
}

// loop waits for the registered sockets and starts the wake of each
// ready one; it returns once none is registered.
func (p *poller) loop() {
	events := make([]syscall.EpollEvent, 128)
	var ready []*Handle
	for {
		var n int
		err := p.rc.Read(func(fd uintptr) bool {
			var err error
			n, err = syscall.EpollWait(int(fd), events, 0)
			if err != nil {
				n = 0
				return err != syscall.EINTR
			}
			return n > 0
		})
		p.mu.Lock()
		for _, ev := range events[:n] {
			id := *(*uint64)(unsafe.Pointer(&ev.Fd))
			if id == 0 {
				var b [8]byte
				_, _ = syscall.Read(p.evfd, b[:])
				continue
			}
			if h := p.handles[id]; h != nil {
				ready = append(ready, h)
			}
		}
		if err != nil {
			// The set cannot be waited for: no socket is registered
			// from now on, and every one registered wakes, its owner
			// reading it.
			p.ok = false
			for _, h := range p.handles {
				ready = append(ready, h)
			}
		}
		done := len(p.handles) == 0 || err != nil
		if done {
			p.running = false
		}
		p.mu.Unlock()
		for i, h := range ready {
			if h.state.CompareAndSwap(armed, reading) {
				go h.wake()
			}
			ready[i] = nil
		}
		ready = ready[:0]
		if done {
			return
		}
	}
}
