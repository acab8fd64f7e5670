// Package httpstream serves GraphQL operations as one streamed HTTP
// response, for every host (net/http, fasthttp, ...): Server-Sent Events
// in the graphql-sse protocol's distinct connections mode, and multipart
// subscriptions (multipart/mixed with subscriptionSpec=1.0) as Apollo
// Client and Apollo Router speak them. The host hands over the request and
// a function that writes and flushes chunks; the wire format is written
// here once.
//
// A format is a Format value: a new streamed wire format (incremental
// delivery, for example) is another Format and one line in Match.
package httpstream

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/graftgql/graft/internal/httpapi"
	"github.com/graftgql/graft/internal/transport"
)

// Format is a streamed wire format: how a stream opens, carries each
// payload and each heartbeat, and completes.
type Format struct {
	// ContentType is the stream's Content-Type.
	ContentType string
	// Header holds headers the stream carries besides the pipeline's.
	Header http.Header
	// Open is written first, so the client sees the stream open before
	// the first payload.
	Open []byte
	// Before and After are written before and after each payload (a
	// GraphQL response).
	Before, After []byte
	// Heartbeat is written every keep-alive interval.
	Heartbeat []byte
	// Complete ends a stream that completed.
	Complete []byte
	// Single, when set, writes the answer of an operation that is not a
	// stream (a query, or request errors with status 200 or 400) as one
	// payload of the stream for a client that accepts no JSON type;
	// otherwise it is answered as plain JSON.
	Single bool
}

// SSE is graphql-sse's distinct connections mode.
var SSE = Format{
	ContentType: "text/event-stream; charset=utf-8",
	Header:      http.Header{"Cache-Control": {"no-cache"}, "X-Accel-Buffering": {"no"}},
	Open:        []byte(":\n\n"),
	Before:      []byte("event: next\ndata: "),
	After:       []byte("\n\n"),
	Heartbeat:   []byte(":\n\n"),
	Complete:    []byte("event: complete\ndata: \n\n"),
	Single:      true,
}

// Multipart is multipart subscriptions: parts carrying {"payload": result}
// and empty {} parts as heartbeats.
var Multipart = Format{
	ContentType: `multipart/mixed;boundary="graphql";subscriptionSpec="1.0"`,
	Header:      http.Header{"Cache-Control": {"no-cache"}},
	Open:        []byte("\r\n--graphql"),
	Before:      []byte("\r\ncontent-type: application/json; charset=utf-8\r\n\r\n{\"payload\":"),
	After:       []byte("}\r\n--graphql"),
	Heartbeat:   []byte("\r\ncontent-type: application/json; charset=utf-8\r\n\r\n{}\r\n--graphql"),
	Complete:    []byte("--\r\n"),
}

// Payload returns the chunks that carry one payload.
func (f *Format) Payload(body []byte) [][]byte { return [][]byte{f.Before, body, f.After} }

// chunk appends to dst one payload as a chunk of a chunked HTTP/1.1 body
// (a Detached stream's wire bytes).
func (f *Format) chunk(dst, body []byte) []byte {
	return appendChunk(dst, f.Before, body, f.After)
}

// appendChunk appends parts to dst as one chunk of a chunked body.
func appendChunk(dst []byte, parts ...[]byte) []byte {
	n := 0
	for _, c := range parts {
		n += len(c)
	}
	if n == 0 {
		return dst
	}
	dst = strconv.AppendInt(dst, int64(n), 16)
	dst = append(dst, "\r\n"...)
	for _, c := range parts {
		dst = append(dst, c...)
	}
	return append(dst, "\r\n"...)
}

// Incremental is incremental delivery (@defer and @stream) in the
// graphql-js 17 format (specs.apollo.dev/incremental/v0.2): parts carrying
// each payload as it is, no heartbeats (the payloads say when the
// response is complete), never cached.
var Incremental = incremental(`multipart/mixed;boundary="-";incrementalSpec=v0.2`)

// Incremental2022 is incremental delivery in the format of
// deferSpec=20220824, framed as Incremental.
var Incremental2022 = incremental(`multipart/mixed;boundary="-";deferSpec=20220824`)

func incremental(contentType string) Format {
	return Format{
		ContentType: contentType,
		Header:      http.Header{"Cache-Control": {"no-store"}},
		Open:        []byte("\r\n---"),
		Before:      []byte("\r\ncontent-type: application/json; charset=utf-8\r\n\r\n"),
		After:       []byte("\r\n---"),
		Complete:    []byte("--\r\n"),
	}
}

// Match returns the stream format an Accept header list prefers, or nil
// when it names none the client accepts: only such a request may be
// answered with a stream, and whether it is depends on its operation (see
// Serve). An event stream and a multipart subscription are chosen by
// content negotiation (httpapi.Choose: the client's q values, then the
// specificity of its ranges, then its order); failing those, incremental
// delivery (MatchIncremental).
func Match(accept []string) *Format {
	var h string
	switch len(accept) {
	case 0:
		return nil
	case 1:
		h = accept[0]
	default:
		h = strings.Join(accept, ",")
	}
	f, _ := httpapi.Choose(h, httpapi.Streams, true)
	switch f {
	case httpapi.FormatEventStream:
		return &SSE
	case httpapi.FormatMultipartSubscription:
		return &Multipart
	}
	return MatchIncremental(accept)
}

// MatchIncremental returns the incremental delivery format an Accept
// header list asks for: the first multipart/mixed range with
// incrementalSpec=v0.2 (Incremental) or deferSpec=20220824
// (Incremental2022), or with no spec parameter at all (Incremental2022,
// which every multipart client reads). It returns nil when there is none;
// a range asking for multipart subscriptions asks for none.
func MatchIncremental(accept []string) *Format {
	var f *Format
	MediaRanges(accept, func(mt, params string) bool {
		if mt != "multipart/mixed" {
			return true
		}
		plain := true
		for p := range strings.SplitSeq(params, ";") {
			k, v, _ := strings.Cut(p, "=")
			k, v = strings.ToLower(strings.TrimSpace(k)), strings.Trim(strings.TrimSpace(v), `"`)
			switch {
			case k == "incrementalspec" && v == "v0.2":
				f = &Incremental
				return false
			case k == "deferspec" && v == "20220824":
				f = &Incremental2022
				return false
			case k == "subscriptionspec", k == "incrementalspec", k == "deferspec":
				plain = false // another spec
			}
		}
		if plain {
			f = &Incremental2022
			return false
		}
		return true
	})
	return f
}

// Serve answers raw, whose Accept header Match took for format f: it
// counts a connection in h (a refusal passes p's door), starts the
// operation through p, and returns in resp
// the status and headers to send and, for a stream, body, which writes it:
// it calls write with the chunks of each message (the host writes and
// flushes them within its write timeout and returns an error once the
// client is gone; calls never overlap) and returns when the stream has
// ended. A nil body means resp is the whole answer. Heartbeats go every
// keepAlive (none when it is not positive).
func Serve(ctx context.Context, p transport.Pipeline, h *transport.Hub, keepAlive time.Duration, f *Format, raw *httpapi.RawRequest, resp *httpapi.Response) (body func(write func(chunks ...[]byte) error)) {
	body, _ = ServeDetachable(ctx, p, h, keepAlive, f, raw, resp, nil)
	return body
}

// ServeDetachable is Serve for a host that can take a stream's
// connection over from its HTTP server once the operation is known to
// stream: detach, given the stream's status and headers, writes them and
// returns the connection (nil when it cannot take it over, and the host
// then writes the head and calls body as after Serve). A stream on a
// detached connection is served with no goroutine while idle (see
// Detached) and detached reports true: there is nothing more for the
// host to write, and the host's handler returns while the stream goes
// on. ctx ends when the client goes away, as long as the host serves the
// stream.
func ServeDetachable(ctx context.Context, p transport.Pipeline, h *transport.Hub, keepAlive time.Duration, f *Format, raw *httpapi.RawRequest, resp *httpapi.Response, detach func(resp *httpapi.Response) Detached) (body func(write func(chunks ...[]byte) error), detached bool) {
	if !h.AcquireConn() {
		*resp = *p.Refuse(ctx, raw, transport.TooManyConnections())
		return nil, false
	}
	parent := ctx
	if detach != nil {
		// A detached stream outlives the host's request, whose context
		// ends with the handler; until it is detached, the request's
		// end ends the operation (unwatch).
		parent = context.WithoutCancel(ctx)
	}
	sctx, cancel := context.WithCancelCause(parent)
	unwatch := func() bool { return false }
	if detach != nil {
		unwatch = context.AfterFunc(ctx, func() { cancel(context.Cause(ctx)) })
	}
	var once sync.Once
	stop := func(cause error) {
		cancel(cause)
		once.Do(h.ReleaseConn)
	}
	// An operation that does not stream (a query, a mutation, request
	// errors) is one JSON response whenever the client accepts one, in
	// the JSON type it prefers; otherwise it is a payload of the stream.
	_, single := httpapi.Negotiate(raw.Accept)
	if !single {
		raw.Accept = httpapi.MediaGraphQLResponse
	}
	op := p.Start(sctx, raw)
	if !op.Streaming() {
		r := op.Response()
		if !single && f.Single && (r.Status == http.StatusOK || r.Status == http.StatusBadRequest) {
			// Request errors, and queries, are a payload of the stream.
			// Held in the hub's budget until written, or refused.
			payload, held := h.Hold(r.Body)
			payload = append([]byte(nil), payload...)
			streamHeader(resp, f, r.Header)
			return func(write func(...[]byte) error) {
				defer stop(nil)
				defer h.Release(held)
				chunks := append([][]byte{f.Open}, f.Payload(payload)...)
				_ = write(append(chunks, f.Complete)...)
			}, false
		}
		*resp = *r
		stop(nil)
		return nil, false
	}
	if !h.AcquireSub() {
		stop(nil)
		op.Abandon(transport.TooManySubscriptions())
		*resp = *op.Response()
		return nil, false
	}
	streamHeader(resp, f, op.Response().Header)
	if detach != nil {
		if d := detach(resp); d != nil {
			unwatch()
			serveDetached(d, f, h, keepAlive, op, sctx, stop)
			return nil, true
		}
	}
	return func(write func(...[]byte) error) {
		write = serialised(write)
		defer stop(nil)
		defer h.ReleaseSub()
		if write(f.Open) != nil {
			return
		}
		if pump(sctx, h, keepAlive, op, stop,
			func(body []byte) error {
				// Held in the hub's budget until written, or refused.
				body, held := h.Hold(body)
				defer h.Release(held)
				return write(f.Before, body, f.After)
			},
			func() error { return write(f.Heartbeat) }) {
			_ = write(f.Complete)
		}
	}, false
}

// streamHeader sets the status and headers of a stream in format f,
// beside the pipeline's (the request ID, CORS).
func streamHeader(resp *httpapi.Response, f *Format, header http.Header) {
	*resp = httpapi.Response{Status: http.StatusOK, ContentType: f.ContentType, Header: header}
	for k, v := range f.Header {
		resp.SetHeader(k, v[0])
	}
}

// pump runs op's stream until it ends, the client goes, or the server
// shuts down: each payload goes to send, and heartbeat runs every
// keepAlive. It reports whether the stream should be completed (the
// source ended or the server is shutting down) rather than just dropped
// (the client is gone).
func pump(ctx context.Context, h *transport.Hub, keepAlive time.Duration, op transport.Operation, stop context.CancelCauseFunc, send func([]byte) error, heartbeat func() error) bool {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var tick <-chan time.Time
		if keepAlive > 0 {
			t := time.NewTicker(keepAlive)
			defer t.Stop()
			tick = t.C
		}
		for {
			select {
			case <-done:
				return
			case <-h.Closing():
				stop(transport.ErrShutdown)
				return
			case <-tick:
				if heartbeat() != nil {
					stop(transport.ErrClientGone)
					return
				}
			}
		}
	})
	err := op.Pump(send)
	close(done)
	wg.Wait()
	cause := context.Cause(ctx)
	return err == nil && cause == nil || cause == transport.ErrShutdown
}

// serialised makes write safe for the payload and heartbeat goroutines
// of a stream; after a failure it fails at once.
func serialised(write func(...[]byte) error) func(...[]byte) error {
	var mu sync.Mutex
	var failed error
	return func(chunks ...[]byte) error {
		mu.Lock()
		defer mu.Unlock()
		if failed == nil {
			failed = write(chunks...)
		}
		return failed
	}
}

// AcceptsEventStream reports whether an Accept header list holds
// text/event-stream. A request without Accept is a JSON request.
func AcceptsEventStream(values []string) bool {
	found := false
	MediaRanges(values, func(mt, _ string) bool {
		found = mt == "text/event-stream"
		return !found
	})
	return found
}

// AcceptsMultipart reports whether an Accept header list asks for
// multipart subscriptions: multipart/mixed with subscriptionSpec=1.0
// (quoted or not).
func AcceptsMultipart(values []string) bool {
	found := false
	MediaRanges(values, func(mt, params string) bool {
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

// MediaRanges yields the media types of an Accept header list with their
// parameters, until yield returns false.
func MediaRanges(values []string, yield func(mt, params string) bool) {
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			mt, params, _ := strings.Cut(part, ";")
			if !yield(strings.ToLower(strings.TrimSpace(mt)), params) {
				return
			}
		}
	}
}
