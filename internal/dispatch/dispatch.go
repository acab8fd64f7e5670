// Package dispatch lets graft's transport adapters (fasthttpadapter,
// lambdaadapter) run a router's pipeline on a transport-neutral request
// without the pipeline's types appearing in graft's public API. Package
// graft installs Into when it is initialised.
package dispatch

import (
	"context"
	"io"

	"github.com/graftgql/graft/internal/httpapi"
)

// Into runs raw through the pipeline of router (a *graft.Router) and
// writes the answer into resp, overwriting its fields and reusing the
// capacity of resp.Body, so an adapter can pool responses. raw.Body must
// already be read with the router's MaxBodyBytes applied.
var Into func(ctx context.Context, router any, raw *httpapi.RawRequest, resp *httpapi.Response)

// Stream serves raw when it asks for a streaming answer that an adapter
// can carry over a plain response body: a Server-Sent Events stream in
// distinct connections mode or a multipart subscription. It reports false
// when raw is not such a request (run it with Into). Otherwise resp holds
// the status and headers to send, and body, when not nil, writes the
// stream: it calls write with the chunks of each message (the adapter
// writes and flushes them, and returns an error once the client is
// gone; calls never overlap) and returns when the stream has ended. A
// WebSocket upgrade is answered 400 OPERATION_NOT_SUPPORTED.
var Stream func(ctx context.Context, router any, raw *httpapi.RawRequest, resp *httpapi.Response) (body func(write func(chunks ...[]byte) error), ok bool)

// Upload serves raw when it is a multipart request of the GraphQL
// multipart request specification to a router that accepts uploads,
// reading its body from body as it arrives (raw.Body is not used; length
// is the length the request announced, -1 when unknown), and writes the
// answer into resp; it reports false, reading nothing, for any other
// request. The adapter calls it before reading the body itself.
var Upload func(ctx context.Context, router any, raw *httpapi.RawRequest, body io.Reader, length int64, resp *httpapi.Response) bool
