package pqstate

import (
	"net"
	"sync"
	"time"
)

// maxRegistrationClients bounds the client addresses a registrations
// limiter counts in one window. Past it, the addresses it has not seen
// share one count, so a client with many addresses cannot grow the
// table: they are limited together.
const maxRegistrationClients = 10_000

// registrations counts the APQ registrations of each client address in
// a window of one minute, refusing those past the limit. Its memory is
// bounded by maxRegistrationClients entries whatever the traffic.
type registrations struct {
	limit int
	now   func() time.Time

	mu       sync.Mutex
	window   int64 // the current minute since the epoch
	counts   map[string]int
	overflow int // the count shared by the addresses beyond the bound
}

func newRegistrations(perMinute int) *registrations {
	return &registrations{limit: perMinute, now: time.Now, counts: make(map[string]int)}
}

// allow counts one registration of the client at addr (host:port, or a
// bare host) and reports whether it is within the limit. An empty address
// (a request made in process, Router.Execute) is not limited.
func (l *registrations) allow(addr string) bool {
	if addr == "" {
		return true
	}
	if host, _, err := net.SplitHostPort(addr); err == nil {
		addr = host
	}
	w := l.now().Unix() / 60
	l.mu.Lock()
	defer l.mu.Unlock()
	if w != l.window {
		l.window, l.overflow = w, 0
		clear(l.counts)
	}
	n, ok := l.counts[addr]
	switch {
	case ok:
	case len(l.counts) < maxRegistrationClients:
		addr = string([]byte(addr)) // the map outlives the request's memory
	default:
		if l.overflow >= l.limit {
			return false
		}
		l.overflow++
		return true
	}
	if n >= l.limit {
		return false
	}
	l.counts[addr] = n + 1
	return true
}
