package graft

import (
	"net/http"
	"sync/atomic"
	"time"

	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/httpapi"
)

// The streaming transports (WebSocket, SSE, multipart) hold what they
// write to a client (a query's answer, a subscription's event) until the
// client has taken it. Every such byte counts toward the one
// MaxBufferedBytes budget, with the large answers of plain HTTP, and
// each connection's share is bounded too (streamHold); a client that
// does not take a write within the write timeout is disconnected, which
// releases what it held.

// holdStream reserves n bytes a streaming transport is about to hold for
// a client, or reports false when that would cross MaxBufferedBytes.
// Every size counts (answers of plain HTTP under smallAnswer do not:
// MaxInFlight bounds them; a stream may send without end). A true result
// must be followed by releaseStream(n).
func (l *loadBounds) holdStream(n int) bool {
	ok := l.buffered.Add(int64(n)) <= l.maxBuffered
	if !ok {
		l.buffered.Add(-int64(n))
	}
	if n >= smallAnswer {
		l.streamSettled.Add(1)
	}
	return ok
}

func (l *loadBounds) releaseStream(n int) { l.buffered.Add(-int64(n)) }

// streamHold is one reservation of a streaming transport: the bytes of a
// message held for one connection, counted in the router's budget and in
// the connection's share (conn, nil for a connection that holds one
// message at a time).
type streamHold struct {
	l    *loadBounds
	conn *atomic.Int64
	n    int
}

// holdFor reserves body for a connection whose held bytes are conn
// (bounded by perConn beyond its first message) and returns the body to
// send: body itself, or the SERVER_BUSY answer when the budget (or the
// connection's share) is spent. Release the hold once the body is
// written or dropped.
func (r *Router) holdFor(conn *atomic.Int64, body []byte) ([]byte, streamHold) {
	n := len(body)
	if conn != nil {
		if held := conn.Add(int64(n)); held > int64(r.subs.cfg.StreamBufferBytes) && held != int64(n) {
			conn.Add(-int64(n))
			r.load.refuseStream(n)
			return busyAnswer, streamHold{}
		}
	}
	if !r.load.holdStream(n) {
		if conn != nil {
			conn.Add(-int64(n))
		}
		return busyAnswer, streamHold{}
	}
	return body, streamHold{l: &r.load, conn: conn, n: n}
}

// release gives the hold back.
func (h streamHold) release() {
	if h.l == nil {
		return
	}
	h.l.releaseStream(h.n)
	if h.conn != nil {
		h.conn.Add(-int64(h.n))
	}
}

// refuseStream counts a message refused before it reached the budget.
func (l *loadBounds) refuseStream(n int) {
	if n >= smallAnswer {
		l.streamSettled.Add(1)
	}
}

// busyAnswer is the response a streaming transport sends in place of one
// the budget cannot hold.
var busyAnswer = appendErrors(nil, gqlerr.New(gqlerr.ServerBusy, msgTooManyBuffered))

// streamBudget is the router's budget as its transports' hub holds it
// (transport.Budget).
type streamBudget struct{ r *Router }

// Hold implements transport.Budget.
func (b streamBudget) Hold(body []byte) ([]byte, int) {
	send, hold := b.r.holdFor(nil, body)
	return send, hold.n
}

// Release implements transport.Budget.
func (b streamBudget) Release(n int) { b.r.load.releaseStream(n) }

// writeStreamResponse writes a single JSON answer on a streaming
// transport's request (an operation that is not a subscription): held in
// the budget while written, refused with 503 SERVER_BUSY when the budget
// cannot hold it, and within the write timeout.
func (r *Router) writeStreamResponse(w http.ResponseWriter, resp *httpapi.Response) {
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(r.subs.cfg.WriteTimeout))
	_, hold := r.holdFor(nil, resp.Body)
	defer hold.release()
	if hold.l == nil {
		resp.Body = nil // let the answer go before writing the refusal
		r.fail(resp, httpapi.ContentTypeJSON, serverBusyError(msgTooManyBuffered))
	}
	writeResponse(w, resp)
}
