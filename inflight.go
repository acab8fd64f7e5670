package graft

import (
	"net/http"
	"sync/atomic"

	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/httpapi"
)

// Defaults of the load bounds of Config.
const (
	// DefaultMaxInFlight is the default of Config.MaxInFlight.
	DefaultMaxInFlight = 512
	// DefaultMaxBufferedBytes is the default of Config.MaxBufferedBytes:
	// 32 MiB.
	DefaultMaxBufferedBytes = 32 << 20
)

// smallAnswer is the size under which an answer needs no share of the
// buffered-bytes budget: MaxInFlight of them are bounded already.
const smallAnswer = 64 << 10

// busyRetryAfter is the Retry-After, in seconds, of a SERVER_BUSY answer.
const busyRetryAfter = "1"

// loadBounds counts what the router holds for requests being served over
// net/http: the requests themselves, and the bytes of large answers built
// and waiting to be written to their clients.
type loadBounds struct {
	maxInFlight int64
	maxBuffered int64
	inFlight    atomic.Int64
	buffered    atomic.Int64
	// streamSettled counts the messages of 64 KiB or more the streaming
	// transports held or refused (streambounds.go), for tests.
	streamSettled atomic.Int64
}

// enter admits one more request, or reports false when MaxInFlight are
// already being served. A true result must be followed by leave.
func (l *loadBounds) enter() bool {
	if l.inFlight.Add(1) > l.maxInFlight {
		l.inFlight.Add(-1)
		return false
	}
	return true
}

func (l *loadBounds) leave() { l.inFlight.Add(-1) }

// hold reserves n bytes of the buffered-answer budget for an answer about
// to be written, or reports false when that would cross MaxBufferedBytes.
// Answers under smallAnswer always pass and reserve nothing. A true result
// must be followed by release(n).
func (l *loadBounds) hold(n int) bool {
	if n < smallAnswer {
		return true
	}
	if l.buffered.Add(int64(n)) > l.maxBuffered {
		l.buffered.Add(-int64(n))
		return false
	}
	return true
}

func (l *loadBounds) release(n int) {
	if n >= smallAnswer {
		l.buffered.Add(-int64(n))
	}
}

// serverBusyError is the 503 SERVER_BUSY answer.
func serverBusyError(message string) *httpapi.Error {
	return &httpapi.Error{Status: http.StatusServiceUnavailable,
		Header: http.Header{"Retry-After": {busyRetryAfter}, "Cache-Control": {"no-store"}},
		Err:    gqlerr.New(gqlerr.ServerBusy, message)}
}

const (
	msgTooManyInFlight = "Server busy: too many requests in flight; retry later"
	msgTooManyBuffered = "Server busy: too many large answers waiting for their clients; retry later"
)
