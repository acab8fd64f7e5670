package graft

import (
	"net/http"
	"strings"

	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/httpapi"
)

// Content negotiation for the requests that may stream. Whether an
// answer streams depends on the operation, known only once the request
// is parsed: a request whose Accept header names a stream format runs
// through the pipeline first, then the operation's answer takes the
// format httpapi.Choose picks for what it can produce. A query or
// mutation is a single JSON response whenever the client accepts one;
// a subscription streams in the format the client prefers.

// mayStream reports whether an Accept header list names a stream format
// the client accepts: only such a request can be answered with a stream.
func mayStream(values []string) bool {
	switch len(values) {
	case 0:
		return false
	case 1:
		_, ok := httpapi.Choose(values[0], httpapi.Streams, true)
		return ok
	}
	_, ok := httpapi.Choose(strings.Join(values, ","), httpapi.Streams, true)
	return ok
}

// answerFormat returns the format of the answer to an operation of a
// request that may stream: op streams or not.
func answerFormat(accept string, streams bool) httpapi.Format {
	if streams {
		f, _ := httpapi.Choose(accept, httpapi.Streams, true)
		return f
	}
	f, _ := httpapi.Choose(accept, httpapi.Single|httpapi.Streams, false)
	return f
}

// serveHTTPStream serves a request whose Accept header names a stream
// format: graphql-sse's distinct connections mode (text/event-stream) or
// Apollo's multipart subscriptions. A subscription streams its events in
// the format the client prefers; any other answer, and every error
// before the stream starts, is the ordinary JSON response when the
// client accepts JSON, and otherwise a stream of that one result (the
// event stream's next event for request errors and results, as
// graphql-sse asks; refusals of the request itself, 401, 403, 413, 415
// and 503, answer with their status).
func (r *Router) serveHTTPStream(w http.ResponseWriter, req *http.Request) {
	raw, op, stop, ok := r.startHTTPStream(w, req)
	if !ok {
		return
	}
	defer stop(nil)
	if op.stream == nil {
		if answerFormat(raw.Accept, false) == httpapi.FormatEventStream &&
			(op.resp.Status == http.StatusOK || op.resp.Status == http.StatusBadRequest) {
			s := r.startSSE(w)
			_ = s.write(sseNext, op.resp.Body, sseEnd, sseComplete)
			return
		}
		writeResponse(w, &op.resp)
		return
	}
	if !r.subs.acquireSub() {
		r.writeError(w, &httpapi.Error{Status: http.StatusServiceUnavailable,
			Err: gqlerr.New(gqlerr.TooManySubscriptions, "Too many subscriptions: try again later")})
		return
	}
	defer r.subs.releaseSub()
	if answerFormat(raw.Accept, true) == httpapi.FormatMultipartSubscription {
		r.multipartEvents(w, op, stop)
		return
	}
	s := r.startSSE(w)
	complete := r.streamEvents(op, stop,
		func(body []byte) error { return s.write(sseNext, body, sseEnd) },
		func() error { return s.write(sseKeepAlive) })
	if complete {
		_ = s.write(sseComplete)
	}
}
