package graft

import (
	"context"
	"net/http"
)

// Multipart subscriptions as Apollo Client and Apollo Router speak them:
// a multipart/mixed response whose parts carry {"payload": result}, and
// empty {} parts as heartbeats.
var (
	mpFirst     = []byte("\r\n--graphql")
	mpPartHead  = []byte("\r\ncontent-type: application/json; charset=utf-8\r\n\r\n")
	mpPartClose = []byte("\r\n--graphql")
	mpEnd       = []byte("--\r\n")
	mpHeartbeat = []byte("{}")
)

// multipartType is the content type of a multipart subscription.
const multipartType = `multipart/mixed;boundary="graphql";subscriptionSpec="1.0"`

// multipartEvents streams the events of a subscription as multipart
// parts until it ends.
func (r *Router) multipartEvents(w http.ResponseWriter, op *operation, stop context.CancelCauseFunc) {
	h := w.Header()
	h.Set("Content-Type", multipartType)
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	s := newHTTPStream(w, r.subs.cfg.WriteTimeout)
	// The headers and a first chunk go at once, so the client sees the
	// stream open before the first event.
	if s.write(mpFirst) != nil {
		return
	}
	wrap := []byte(`{"payload":`)
	complete := r.streamEvents(op, stop,
		func(body []byte) error { return s.write(mpPartHead, wrap, body, []byte("}"), mpPartClose) },
		func() error { return s.write(mpPartHead, mpHeartbeat, mpPartClose) })
	if complete {
		_ = s.write(mpEnd)
	}
}
