package graft

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/graftgql/graft/internal/bodylimit"
	"github.com/graftgql/graft/internal/httpapi"
)

// WebHandler serves the router in the shape of a web-standard fetch
// handler: a request value in, a response value out, no ResponseWriter.
// Serverless hosts and tests use it. Build it with NewWebHandler.
type WebHandler struct {
	router *Router
	layer  *Layer
}

// NewWebHandler returns a WebHandler for the router. The router's layer is
// started on the first Handle call, since serverless hosts have no start-up
// hook; Close stops it.
func NewWebHandler(router *Router) *WebHandler {
	return &WebHandler{router: router, layer: router.Layer()}
}

// Start starts the layer unless it is already started. A host with a
// start-up hook may call it early so the first request does not pay for
// it. A failed start is retried by the next call to Start, and by
// requests (no more often than the layer's back-off allows), which answer
// 503 SERVICE_UNAVAILABLE meanwhile.
func (h *WebHandler) Start(ctx context.Context) error {
	if err := h.layer.Start(ctx); err != nil {
		return fmt.Errorf("graft: start layer: %w", err)
	}
	return nil
}

// Close stops the layer: it runs the cleanups of the services built so
// far. A later request starts the layer again.
func (h *WebHandler) Close(ctx context.Context) error {
	return h.layer.Stop(ctx)
}

// Handle runs one request through the router's pipeline and returns the
// complete response. The body is read up to the router's MaxBodyBytes; a
// longer body gets a 413 response. An error is returned only when the
// body cannot be read.
func (h *WebHandler) Handle(ctx context.Context, req *http.Request) (*http.Response, error) {
	if raw := webRawRequest(req, nil); h.router.takesUpload(raw) {
		// A multipart upload is read as it arrives, within
		// Config.Uploads rather than MaxBodyBytes (upload.go).
		resp := &httpapi.Response{}
		h.router.serveUploadInto(ctx, raw, req.Body, req.ContentLength, resp)
		return webHTTPResponse(req, resp), nil
	}
	limit := h.router.Config().MaxBodyBytes
	body, tooLarge, err := bodylimit.Read(req.Body, limit)
	if err != nil {
		return nil, fmt.Errorf("graft: read request body: %w", err)
	}
	raw := webRawRequest(req, body)
	if tooLarge {
		raw.Body, raw.Refusal = nil, httpapi.BodyTooLarge(limit)
	}
	resp := &httpapi.Response{}
	h.router.serveInto(ctx, raw, resp)
	return webHTTPResponse(req, resp), nil
}

// webRawRequest fills an httpapi.RawRequest from a net/http request
// whose body has been read into body.
func webRawRequest(req *http.Request, body []byte) *httpapi.RawRequest {
	return &httpapi.RawRequest{
		Method:      req.Method,
		Path:        req.URL.Path,
		RawQuery:    req.URL.RawQuery,
		ContentType: req.Header.Get("Content-Type"),
		Accept:      req.Header.Get("Accept"),
		Header:      headerLookup(req.Header).get,
		Body:        body,
		Remote:      req.RemoteAddr,
	}
}

// webResponseHeader returns the HTTP header of a pipeline response: its
// headers plus Content-Type.
func webResponseHeader(resp *httpapi.Response) http.Header {
	h := make(http.Header, len(resp.Header)+3)
	for k, v := range resp.Header {
		h[k] = append([]string(nil), v...)
	}
	if resp.ContentType != "" {
		h.Set("Content-Type", resp.ContentType)
	}
	return h
}

// webHTTPResponse builds the *http.Response of a pipeline response.
func webHTTPResponse(req *http.Request, resp *httpapi.Response) *http.Response {
	h := webResponseHeader(resp)
	h.Set("Content-Length", strconv.Itoa(len(resp.Body)))
	return &http.Response{
		Status:        strconv.Itoa(resp.Status) + " " + http.StatusText(resp.Status),
		StatusCode:    resp.Status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		Body:          io.NopCloser(bytes.NewReader(resp.Body)),
		ContentLength: int64(len(resp.Body)),
		Request:       req,
	}
}
