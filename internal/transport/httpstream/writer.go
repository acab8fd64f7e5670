package httpstream

import (
	"net/http"
	"sync"
	"time"

	"github.com/graftgql/graft/internal/httpapi"
	"github.com/graftgql/graft/internal/transport"
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
