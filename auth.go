package graft

import "github.com/graftgql/graft/internal/httpapi"

// AuthRequest is what Config.Auth sees of a request, whatever the
// transport (net/http, fasthttp, AWS Lambda): the method, path, query
// string, headers and client address. The body is not part of it: Auth
// runs before the body is decoded.
type AuthRequest struct {
	Method   string
	Path     string
	RawQuery string // the URL query string, without '?'
	// Header returns the first value of a request header (any case).
	Header func(name string) string
	// Remote is the client address.
	Remote string
}

// authRequest returns the AuthRequest view of raw.
func authRequest(raw *httpapi.RawRequest) *AuthRequest {
	return &AuthRequest{Method: raw.Method, Path: raw.Path, RawQuery: raw.RawQuery, Header: raw.Header, Remote: raw.Remote}
}
