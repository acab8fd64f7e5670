package graft

import (
	"net/http"
	"sync"
	"time"

	"github.com/graftgql/graft/internal/bodylimit"
	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/httpapi"
)

// rawFromHTTP fills the pipeline's view of req, reading a POST body with
// the router's size limit.
func (r *Router) rawFromHTTP(req *http.Request) (*httpapi.RawRequest, *httpapi.Error) {
	raw := &httpapi.RawRequest{
		Method:      req.Method,
		Path:        req.URL.Path,
		RawQuery:    req.URL.RawQuery,
		ContentType: req.Header.Get("Content-Type"),
		Accept:      req.Header.Get("Accept"),
		Header:      req.Header.Get,
		Remote:      req.RemoteAddr,
	}
	if req.Method == http.MethodPost {
		body, tooLarge, err := bodylimit.ReadInto(nil, req.Body, req.ContentLength, r.cfg.MaxBodyBytes)
		switch {
		case tooLarge:
			return nil, httpapi.BodyTooLarge(r.cfg.MaxBodyBytes)
		case err != nil:
			return nil, &httpapi.Error{Status: http.StatusBadRequest, Err: gqlerr.New(gqlerr.BadRequest,
				"The request body could not be read")}
		}
		raw.Body = body
	}
	return raw, nil
}

// httpStream writes one streaming HTTP response: every write within the
// write timeout and flushed at once.
type httpStream struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	mu      sync.Mutex
	failed  bool
}

func newHTTPStream(w http.ResponseWriter, timeout time.Duration) *httpStream {
	s := &httpStream{w: w, rc: http.NewResponseController(w), timeout: timeout}
	// The server's read timeout must not end a long-lived response; the
	// write timeout is set per write.
	_ = s.rc.SetReadDeadline(time.Time{})
	return s
}

// write writes and flushes chunks; a client that does not take them
// within the write timeout is disconnected.
func (s *httpStream) write(chunks ...[]byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failed {
		return errNotStream
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
