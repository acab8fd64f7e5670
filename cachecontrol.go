package graft

import (
	"context"
	"net/http"

	"github.com/graftgql/graft/internal/httpapi"
	"github.com/graftgql/graft/internal/pqstate"
)

// authAcceptedKey marks a request context whose Auth hook accepted a user
// (returned a new context).
type authAcceptedKey struct{}

// persistedVary names the request headers a cacheable persisted answer
// depends on: its media type follows Accept, and an answer given without
// credentials must not be reused for a request with them.
const persistedVary = "Accept, Authorization, Cookie"

// setPersistedCacheControl sets the Cache-Control of a successful persisted
// GET answer. The rule: the answer is publicly cacheable (cc as configured)
// only when the request carries neither Authorization nor Cookie and no
// Auth hook accepted a user; otherwise cc is made private, so a shared cache
// never gives one user's answer to another. Either way Vary names Accept,
// Authorization and Cookie.
func setPersistedCacheControl(ctx context.Context, header func(string) string, resp *httpapi.Response, cc string) {
	resp.SetHeader("Cache-Control", cc) // makes resp.Header
	setCacheHeaders(ctx, header, resp.Header, cc)
}

// setCacheHeaders sets Cache-Control to cc in h, made private when the
// request has credentials, and adds Vary.
func setCacheHeaders(ctx context.Context, header func(string) string, h http.Header, cc string) {
	if header != nil && (header("Authorization") != "" || header("Cookie") != "") || ctx.Value(authAcceptedKey{}) != nil {
		cc = pqstate.PrivateCacheControl(cc)
	}
	h.Set("Cache-Control", cc)
	h["Vary"] = append(h["Vary"], persistedVary)
}
