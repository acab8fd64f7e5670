package graft

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"unsafe"

	"github.com/graftgql/graft/internal/httpapi"
)

// RequestIDHeader is the header a request ID is taken from and echoed in
// when Config.RequestID is on.
const RequestIDHeader = "X-Request-ID"

// requestIDKey is RequestIDHeader in its canonical form, the key of
// http.Header maps: looked up and set as is, it costs no allocation.
const requestIDKey = "X-Request-Id"

// identify records the request's method, client address and request ID.
func (r *Router) identify(raw *httpapi.RawRequest, st *requestState) {
	st.info.Method, st.info.RemoteAddr = raw.Method, raw.Remote
	if !r.cfg.RequestID || st.info.RequestID != "" {
		return
	}
	if raw.Header != nil {
		if id := raw.Header(requestIDKey); validRequestID(id) {
			st.info.RequestID = id
			return
		}
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	if h := st.hookedState(); h != nil {
		// In the state's own memory, written once: no allocation.
		hex.Encode(h.id[:], b[:])
		st.info.RequestID = unsafe.String(&h.id[0], len(h.id))
		return
	}
	st.info.RequestID = hex.EncodeToString(b[:])
}

// validRequestID accepts a client's request ID of printable ASCII without
// spaces, up to 128 bytes, so it is safe in logs and headers.
func validRequestID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] <= ' ' || id[i] > '~' {
			return false
		}
	}
	return true
}

// SetResponseHeader sets a header of the HTTP answer of the request ctx
// belongs to (a resolver's or a hook's context). It reports false when
// ctx is not a graft request's, or the transport has no per-request
// header (WebSocket and SSE events). Safe for concurrent resolvers.
func SetResponseHeader(ctx context.Context, name, value string) bool {
	return editHeader(ctx, func(h http.Header) { h.Set(name, value) })
}

// SetCookie adds a Set-Cookie header to the HTTP answer of the request
// ctx belongs to; it reports false as SetResponseHeader does. An invalid
// cookie is dropped, as net/http drops it.
func SetCookie(ctx context.Context, c *http.Cookie) bool {
	v := c.String()
	if v == "" {
		return false
	}
	return editHeader(ctx, func(h http.Header) { h.Add("Set-Cookie", v) })
}

func editHeader(ctx context.Context, edit func(http.Header)) bool {
	st := stateFrom(ctx)
	if st == nil {
		return false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.resp == nil {
		return false
	}
	if st.resp.Header == nil {
		st.resp.Header = make(http.Header, 2)
	}
	edit(st.resp.Header)
	return true
}

// detachResponse ends what attachResponse began, once the answer is
// written: SetResponseHeader and SetCookie report false from then on.
func (st *requestState) detachResponse() {
	st.mu.Lock()
	st.resp = nil
	st.mu.Unlock()
}

// attachResponse lets resolvers reach resp, and echoes the request ID.
func (st *requestState) attachResponse(resp *httpapi.Response) {
	st.mu.Lock()
	st.resp = resp
	st.mu.Unlock()
	if st.info.RequestID != "" {
		if resp.Header == nil {
			resp.Header = make(http.Header, 1)
		}
		st.idHeader[0] = st.info.RequestID
		resp.Header[requestIDKey] = st.idHeader[:1:1]
	}
}

// logAttrs are the request's attributes for log lines.
func (r *Router) logAttrs(st *requestState) []any {
	if st == nil {
		return nil
	}
	a := make([]any, 0, 4)
	if st.info.RequestID != "" {
		a = append(a, "request_id", st.info.RequestID)
	}
	if st.info.OperationName != "" {
		a = append(a, "operation", st.info.OperationName)
	}
	return a
}

// requestLogHandler adds the request ID and operation name of the graft
// request in the context to every record logged with a context (the
// ErrorContext of internal errors and resolver panics).
type requestLogHandler struct{ slog.Handler }

func (h requestLogHandler) Handle(ctx context.Context, rec slog.Record) error {
	if st := stateFrom(ctx); st != nil {
		if st.info.RequestID != "" {
			rec.AddAttrs(slog.String("request_id", st.info.RequestID))
		}
		if st.info.OperationName != "" {
			rec.AddAttrs(slog.String("operation", st.info.OperationName))
		}
	}
	return h.Handler.Handle(ctx, rec)
}

func (h requestLogHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return requestLogHandler{h.Handler.WithAttrs(attrs)}
}

func (h requestLogHandler) WithGroup(name string) slog.Handler {
	return requestLogHandler{h.Handler.WithGroup(name)}
}

// withRequestAttrs wraps l so its context records carry the request's
// attributes.
func withRequestAttrs(l *slog.Logger) *slog.Logger {
	if _, ok := l.Handler().(requestLogHandler); ok {
		return l
	}
	return slog.New(requestLogHandler{l.Handler()})
}
