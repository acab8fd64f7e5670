package httpstream

import (
	"bytes"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/graftgql/graft/internal/httpapi"
	"github.com/graftgql/graft/internal/transport"
	"github.com/graftgql/graft/internal/transport/poll"
)

// Writer writes one streamed net/http response: every write within the
// write timeout and flushed at once.
type Writer struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	mu      sync.Mutex
	failed  bool
}

// NewWriter returns a Writer of w. The server's read deadline is cleared:
// it must not end a long-lived response; the write timeout is set per
// write.
func NewWriter(w http.ResponseWriter, timeout time.Duration) *Writer {
	s := &Writer{w: w, rc: http.NewResponseController(w), timeout: timeout}
	_ = s.rc.SetReadDeadline(time.Time{})
	return s
}

// Write writes and flushes chunks; a client that does not take them
// within the write timeout is disconnected. After a failure it fails at
// once.
func (s *Writer) Write(chunks ...[]byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failed {
		return transport.ErrClientGone
	}
	_ = s.rc.SetWriteDeadline(time.Now().Add(s.timeout))
	for _, c := range chunks {
		if _, err := s.w.Write(c); err != nil {
			s.failed = true
			return err
		}
	}
	if err := s.rc.Flush(); err != nil {
		s.failed = true
		return err
	}
	return nil
}

// WriteHead writes the status and headers of resp, without a body.
func WriteHead(w http.ResponseWriter, resp *httpapi.Response) {
	h := w.Header()
	for k, v := range resp.Header {
		h[k] = append(h[k], v...)
	}
	h.Set("Content-Type", resp.ContentType)
	w.WriteHeader(resp.Status)
}

// Detach takes the connection of w, which serves req, over from net/http
// and writes the head of resp to it (its status, w's headers with resp's,
// chunked transfer encoding, Connection: close), for ServeDetachable; each write is bounded
// by timeout. It returns nil, having taken nothing over, when the stream
// could not wait with no goroutine: HTTP/2, TLS, a ResponseWriter that
// cannot hijack, or no poller on the platform; or when the client speaks
// HTTP/1.0, which has no chunked encoding.
func Detach(w http.ResponseWriter, req *http.Request, resp *httpapi.Response, timeout time.Duration) Detached {
	if req.ProtoMajor != 1 || req.ProtoMinor < 1 || req.TLS != nil || !poll.Supported() {
		return nil
	}
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return nil
	}
	d := &hijacked{conn: conn, timeout: timeout}
	d.rawOK = d.raw.Init(conn)
	d.idle = poll.Watch(conn, d.wake)
	h := w.Header()
	for k, v := range resp.Header {
		h[k] = append(h[k], v...)
	}
	h.Set("Content-Type", resp.ContentType)
	h.Set("Transfer-Encoding", "chunked")
	// The connection closes with the stream: the client must not send
	// another request on it.
	h.Set("Connection", "close")
	h.Set("Date", time.Now().UTC().Format(http.TimeFormat))
	var head bytes.Buffer
	head.WriteString("HTTP/1.1 " + strconv.Itoa(resp.Status) + " " + http.StatusText(resp.Status) + "\r\n")
	_ = h.Write(&head)
	head.WriteString("\r\n")
	if d.send(head.Bytes()) != nil {
		d.Close(false)
		// The stream's first write fails and ends it.
	}
	return d
}

// hijacked is a connection taken over from net/http (Detach): its
// response body in chunked transfer encoding.
type hijacked struct {
	conn    net.Conn
	timeout time.Duration
	// raw writes without waiting, when rawOK; where the socket cannot
	// be written that way every write waits. Held in place: one pointer
	// less to follow for every event. The connection closes through it.
	raw   transport.RawWriter
	rawOK bool
	// idle waits for the client's leaving; nil where sockets cannot be
	// watched (a goroutine reads then).
	idle *poll.Handle
	gone func()
}

// chunkPool holds the buffers a chunk is gathered in.
var chunkPool = sync.Pool{New: func() any { return new([]byte) }}

// Write writes chunks as one chunk of the body, in one write.
func (d *hijacked) Write(chunks ...[]byte) error {
	b := chunkPool.Get().(*[]byte)
	buf := appendChunk((*b)[:0], chunks...)
	var err error
	if len(buf) > 0 {
		err = d.send(buf)
	}
	if cap(buf) <= 64<<10 {
		*b = buf[:0]
		chunkPool.Put(b)
	}
	return err
}

// TryWrite writes as much of b as the socket takes without waiting.
func (d *hijacked) TryWrite(b []byte) (int, error) {
	if !d.rawOK {
		return 0, nil
	}
	return d.raw.TryWrite(b)
}

// WriteRaw writes b within the timeout.
func (d *hijacked) WriteRaw(b []byte) error { return d.send(b) }

// send writes b within the timeout. The deadline is cleared afterwards:
// TryWrite, which sets none, must not find an old one passed.
func (d *hijacked) send(b []byte) error {
	_ = d.conn.SetWriteDeadline(time.Now().Add(d.timeout))
	_, err := d.conn.Write(b)
	if err == nil {
		err = d.conn.SetWriteDeadline(time.Time{})
	}
	return err
}

// Wait calls gone once the client sends anything or goes away.
func (d *hijacked) Wait(gone func()) bool {
	d.gone = gone
	if d.idle == nil {
		go func() {
			var b [1]byte
			_, _ = d.conn.Read(b[:])
			gone()
		}()
		return true
	}
	return d.idle.Arm()
}

// wake is the poller's notice of input or of the client's leaving.
func (d *hijacked) wake() { d.gone() }

// Close ends the body when complete and closes the connection.
func (d *hijacked) Close(complete bool) {
	if complete {
		_ = d.send([]byte("0\r\n\r\n"))
	}
	if d.idle != nil {
		d.idle.Stop()
	}
	_ = d.raw.Close(d.conn)
}
