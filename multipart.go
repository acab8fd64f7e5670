package graft

import (
	"net/http"
	"strings"
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

// acceptsMultipart reports whether an Accept header list asks for
// multipart subscriptions: multipart/mixed with subscriptionSpec=1.0
// (quoted or not).
func acceptsMultipart(values []string) bool {
	found := false
	mediaRanges(values, func(mt, params string) bool {
		if mt != "multipart/mixed" {
			return true
		}
		for p := range strings.SplitSeq(params, ";") {
			k, v, _ := strings.Cut(p, "=")
			if strings.EqualFold(strings.TrimSpace(k), "subscriptionSpec") && strings.Trim(strings.TrimSpace(v), `"`) == "1.0" {
				found = true
				return false
			}
		}
		return true
	})
	return found
}

// serveMultipart answers a request that accepts multipart subscriptions.
// A subscription streams its events as parts; any other operation, and
// every error before the stream starts, gets the ordinary JSON response
// (application/graphql-response+json).
func (r *Router) serveMultipart(w http.ResponseWriter, req *http.Request) {
	op, stop, ok := r.startHTTPStream(w, req)
	if !ok {
		return
	}
	defer stop(nil)
	if op.stream == nil {
		r.writeStreamResponse(w, &op.resp)
		return
	}
	if !r.subs.acquireSub() {
		op.abandon(tooManySubscriptions())
		writeResponse(w, &op.resp)
		return
	}
	defer r.subs.releaseSub()
	h := w.Header()
	for k, v := range op.resp.Header {
		h[k] = append(h[k], v...)
	}
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
		func(body []byte) error {
			body, hold := r.holdFor(nil, body)
			defer hold.release()
			return s.write(mpPartHead, wrap, body, []byte("}"), mpPartClose)
		},
		func() error { return s.write(mpPartHead, mpHeartbeat, mpPartClose) })
	if complete {
		_ = s.write(mpEnd)
	}
}
