package graft

import (
	"context"
	"net/http"

	"github.com/graftgql/graft/httpapi"
	"github.com/graftgql/graft/persisted"
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
	if header("Authorization") != "" || header("Cookie") != "" || ctx.Value(authAcceptedKey{}) != nil {
		cc = persisted.PrivateCacheControl(cc)
	}
	resp.CacheControl = cc
	if resp.Header == nil {
		resp.Header = make(http.Header, 1)
	}
	resp.Header["Vary"] = append(resp.Header["Vary"], persistedVary)
}
