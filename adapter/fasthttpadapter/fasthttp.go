// Package fasthttpadapter serves a graft router natively on
// github.com/valyala/fasthttp: the request is read straight from the
// fasthttp.RequestCtx into the router's transport-neutral pipeline and
// the pipeline's answer written back, with no net/http types on the way.
// The behaviour is that of the router's ServeHTTP; only the host differs.
package fasthttpadapter

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/internal/dispatch"
	"github.com/graftgql/graft/internal/httpapi"
)

// Handler returns a fasthttp handler running the router's pipeline. Bodies
// over the router's MaxBodyBytes are refused with 413; a fasthttp.Server
// should also set MaxRequestBodySize (Serve does), so such bodies are not
// read at all.
func Handler(router *graft.Router) fasthttp.RequestHandler {
	limit := router.Config().MaxBodyBytes
	return func(ctx *fasthttp.RequestCtx) {
		raw := rawRequest(ctx)
		if int64(len(raw.Body)) > limit {
			refuse(ctx, router, &raw, httpapi.BodyTooLarge(limit))
			return
		}
		// The request context is not used as the pipeline's context:
		// fasthttp recycles it when the handler returns.
		if serveStream(ctx, router, &raw) {
			return
		}
		serve(ctx, router, &raw)
	}
}

// rawRequest is the pipeline's view of the request of ctx.
func rawRequest(ctx *fasthttp.RequestCtx) httpapi.RawRequest {
	req := &ctx.Request
	return httpapi.RawRequest{
		Method:      string(req.Header.Method()),
		Path:        string(ctx.Path()),
		RawQuery:    string(ctx.URI().QueryString()),
		ContentType: string(req.Header.ContentType()),
		Accept:      string(req.Header.Peek("Accept")),
		Header:      func(name string) string { return string(req.Header.Peek(name)) },
		Body:        ctx.PostBody(),
		Remote:      ctx.RemoteAddr().String(),
	}
}

// serve runs raw through the router's pipeline and writes the answer.
func serve(ctx *fasthttp.RequestCtx, router *graft.Router, raw *httpapi.RawRequest) {
	resp := responses.Get().(*httpapi.Response)
	dispatch.Into(context.Background(), router, raw, resp)
	writeResponse(ctx, resp) // copies the body
	if cap(resp.Body) <= maxPooledBody {
		resp.SetErrors()
		responses.Put(resp)
	}
}

// refuse answers raw with e through the router's door, so the hooks, the
// access log and the metrics see the refusal.
func refuse(ctx *fasthttp.RequestCtx, router *graft.Router, raw *httpapi.RawRequest, e *httpapi.Error) {
	raw.Body, raw.Refusal = nil, e
	serve(ctx, router, raw)
}

// serveStream answers a subscription over Server-Sent Events (distinct
// connections mode) or multipart HTTP with fasthttp's body stream
// writer, each message written and flushed within the router's
// subscription write timeout. It reports false when raw asks for no
// stream. WebSocket and single connection SSE need the net/http router;
// a WebSocket upgrade is answered 400 OPERATION_NOT_SUPPORTED.
func serveStream(ctx *fasthttp.RequestCtx, router *graft.Router, raw *httpapi.RawRequest) bool {
	if !strings.Contains(raw.Accept, "event-stream") && !strings.Contains(raw.Accept, "multipart/mixed") &&
		len(ctx.Request.Header.Peek("Upgrade")) == 0 {
		return false // the hot path: no stream asked for
	}
	// The request's headers and body belong to fasthttp, which recycles
	// them once the handler returns, while a stream runs on: it gets
	// copies.
	header := map[string]string{}
	for k, v := range ctx.Request.Header.All() {
		header[http.CanonicalHeaderKey(string(k))] = string(v)
	}
	raw.Header = func(name string) string { return header[http.CanonicalHeaderKey(name)] }
	raw.Body = append([]byte(nil), raw.Body...)
	var resp httpapi.Response
	body, ok := dispatch.Stream(context.Background(), router, raw, &resp)
	if !ok {
		return false
	}
	writeResponse(ctx, &resp)
	if body == nil {
		return true
	}
	conn, timeout := ctx.Conn(), router.Config().Subscriptions.WriteTimeout
	if timeout <= 0 {
		timeout = graft.DefaultStreamWriteTimeout
	}
	ctx.SetBodyStreamWriter(func(w *bufio.Writer) {
		body(func(chunks ...[]byte) error {
			_ = conn.SetWriteDeadline(time.Now().Add(timeout))
			for _, c := range chunks {
				if _, err := w.Write(c); err != nil {
					return err
				}
			}
			return w.Flush()
		})
	})
	return true
}

// responses recycles pipeline responses and their body buffers; bodies
// that grew past maxPooledBody are left to the garbage collector.
var responses = sync.Pool{New: func() any { return &httpapi.Response{Body: make([]byte, 0, 4096)} }}

const maxPooledBody = 1 << 20

// writeResponse copies a pipeline response to the fasthttp response.
func writeResponse(ctx *fasthttp.RequestCtx, resp *httpapi.Response) {
	ctx.SetStatusCode(resp.Status)
	h := &ctx.Response.Header
	if resp.ContentType != "" {
		h.SetContentType(resp.ContentType)
	}
	for k, vs := range resp.Header {
		for i, v := range vs {
			if i == 0 {
				h.Set(k, v)
			} else {
				h.Add(k, v)
			}
		}
	}
	ctx.SetBody(resp.Body)
}
