package graft

import (
	"context"
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

// streamEvents runs op's stream until it ends, the client goes, or the
// server shuts down: each event's response goes to event, and heartbeat
// runs every keep-alive interval. It reports whether the stream should be
// completed (the source ended or the server is shutting down) rather than
// just dropped (the client is gone).
func (r *Router) streamEvents(op *operation, stop context.CancelCauseFunc, event func([]byte) error, heartbeat func() error) bool {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var tick <-chan time.Time
		if ka := r.subs.cfg.KeepAlive; ka > 0 {
			t := time.NewTicker(ka)
			defer t.Stop()
			tick = t.C
		}
		for {
			select {
			case <-done:
				return
			case <-r.subs.closing:
				stop(errShutdown)
				return
			case <-tick:
				if heartbeat() != nil {
					stop(errNotStream)
					return
				}
			}
		}
	}()
	err := r.pump(op, event)
	close(done)
	wg.Wait()
	cause := context.Cause(op.ctx)
	return err == nil && cause == nil || cause == errShutdown
}
