// Package dispatch lets graft's transport adapters (fasthttpadapter,
// lambdaadapter) run a router's pipeline on a transport-neutral request
// without the pipeline's types appearing in graft's public API. Package
// graft installs Into when it is initialised.
package dispatch

import (
	"context"

	"github.com/graftgql/graft/internal/httpapi"
)

// Into runs raw through the pipeline of router (a *graft.Router) and
// writes the answer into resp, overwriting its fields and reusing the
// capacity of resp.Body, so an adapter can pool responses. raw.Body must
// already be read with the router's MaxBodyBytes applied.
var Into func(ctx context.Context, router any, raw *httpapi.RawRequest, resp *httpapi.Response)
