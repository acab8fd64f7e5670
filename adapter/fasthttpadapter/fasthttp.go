// Package fasthttpadapter serves a graft router natively on
// github.com/valyala/fasthttp: the request is read straight from the
// fasthttp.RequestCtx into the router's transport-neutral pipeline and
// the pipeline's answer written back, with no net/http types on the way.
// The behaviour is that of the router's ServeHTTP; only the host differs.
package fasthttpadapter

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/internal/bodylimit"
	"github.com/graftgql/graft/internal/dispatch"
	"github.com/graftgql/graft/internal/httpapi"
)

// Handler returns a fasthttp handler running the router's pipeline. Bodies
// over the router's MaxBodyBytes are refused with 413; a fasthttp.Server
// should also set MaxRequestBodySize (Serve does), so such bodies are not
// read at all. For file uploads (Router.AcceptsUploads) the server should
// set StreamRequestBody and DisablePreParseMultipartForm (Serve does):
// the multipart body is then read as it arrives, within the router's
// Config.Uploads, rather than held in memory whole.
func Handler(router *graft.Router) fasthttp.RequestHandler {
	limit := router.Config().MaxBodyBytes
	return func(ctx *fasthttp.RequestCtx) {
		if serveUpload(ctx, router) {
			return
		}
		raw := rawRequest(ctx)
		body, tooLarge := requestBody(ctx, limit)
		if tooLarge {
			refuse(ctx, router, &raw, httpapi.BodyTooLarge(limit))
			return
		}
		raw.Body = body
		// The request context is not used as the pipeline's context:
		// fasthttp recycles it when the handler returns.
		if serveStream(ctx, router, &raw) {
			return
		}
		serve(ctx, router, &raw)
	}
}

// rawRequest is the pipeline's view of the request of ctx, without its
// body.
func rawRequest(ctx *fasthttp.RequestCtx) httpapi.RawRequest {
	req := &ctx.Request
	return httpapi.RawRequest{
		Method:      string(req.Header.Method()),
		Path:        string(ctx.Path()),
		RawQuery:    string(ctx.URI().QueryString()),
		ContentType: string(req.Header.ContentType()),
		Accept:      string(req.Header.Peek("Accept")),
		Header:      func(name string) string { return string(req.Header.Peek(name)) },
		Remote:      ctx.RemoteAddr().String(),
	}
}

// requestBody returns the request body, reading it from fasthttp's body
// stream within limit when the server streams bodies
// (StreamRequestBody): fasthttp then hands over bodies of any size.
func requestBody(ctx *fasthttp.RequestCtx, limit int64) (body []byte, tooLarge bool) {
	s := ctx.RequestBodyStream()
	if s == nil {
		body = ctx.PostBody()
		return body, int64(len(body)) > limit
	}
	body, tooLarge, err := bodylimit.ReadInto(nil, s, int64(ctx.Request.Header.ContentLength()), limit)
	if err != nil {
		return nil, false // the client is gone: an empty body answers it
	}
	return body, tooLarge
}

// serveUpload answers a multipart upload, reading its body from
// fasthttp's body stream (Serve sets StreamRequestBody, so the files are
// not held in memory) or from the body fasthttp has read. It reports
// false, reading nothing, for any other request.
func serveUpload(ctx *fasthttp.RequestCtx, router *graft.Router) bool {
	req := &ctx.Request
	ct := req.Header.ContentType()
	if !ctx.IsPost() || !bytes.HasPrefix(bytes.ToLower(bytes.TrimSpace(ct)), []byte("multipart/")) {
		return false
	}
	raw := rawRequest(ctx)
	var body io.Reader
	if s := ctx.RequestBodyStream(); s != nil {
		body = s
	} else {
		body = bufferedBody(&ctx.Request)
	}
	resp := responses.Get().(*httpapi.Response)
	if !dispatch.Upload(context.Background(), router, &raw, body, int64(req.Header.ContentLength()), resp) {
		responses.Put(resp)
		return false
	}
	// A refusal may leave the body unread: read up to maxDrain of it, as
	// net/http does, so the client reads the answer rather than a reset
	// connection.
	_, _ = io.CopyN(io.Discard, body, maxDrain)
	writeResponse(ctx, resp)
	if cap(resp.Body) <= maxPooledBody {
		resp.SetErrors()
		responses.Put(resp)
	}
	return true
}

// bufferedBody returns the multipart body fasthttp has read. A server
// without DisablePreParseMultipartForm has parsed it into a form already,
// keeping no order between its parts: the body is then written again in
// the specification's order, operations, map, then the files.
func bufferedBody(req *fasthttp.Request) io.Reader {
	raw := req.SwapBody(nil)
	req.SwapBody(raw)
	if len(raw) > 0 {
		return bytes.NewReader(raw)
	}
	form, err := req.MultipartForm()
	if err != nil {
		return bytes.NewReader(nil) // answered as a malformed body
	}
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	_ = w.SetBoundary(string(req.Header.MultipartFormBoundary()))
	for _, name := range []string{"operations", "map"} {
		for _, v := range form.Value[name] {
			_ = w.WriteField(name, v)
		}
	}
	for name, vs := range form.Value {
		if name != "operations" && name != "map" {
			for _, v := range vs {
				_ = w.WriteField(name, v)
			}
		}
	}
	for _, fhs := range form.File {
		for _, fh := range fhs {
			pw, err := w.CreatePart(fh.Header)
			if err != nil {
				continue
			}
			if f, err := fh.Open(); err == nil {
				_, _ = io.Copy(pw, f)
				_ = f.Close()
			}
		}
	}
	_ = w.Close()
	return &buf
}

// maxDrain bounds the unread body of a refused upload that is read and
// dropped before the answer.
const maxDrain = 256 << 10

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
