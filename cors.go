package graft

import (
	"net/http"
	"time"

	"github.com/rs/cors"
)

// CORSOptions configures CORS. The zero value allows every origin without
// credentials, which suits a public GraphQL API.
type CORSOptions struct {
	// AllowedOrigins lists the origins allowed to call the API, for example
	// "https://app.example.com". Empty or "*" allows any origin. An entry
	// may hold one wildcard ("https://*.example.com").
	AllowedOrigins []string
	// AllowedHeaders adds request headers to those always allowed
	// (DefaultCORSHeaders).
	AllowedHeaders []string
	// ExposedHeaders lists response headers the browser may read.
	ExposedHeaders []string
	// AllowCredentials lets browsers send cookies and HTTP authentication.
	// Combine it with a list of origins: with "*" every origin's credentialed
	// request would be allowed.
	AllowCredentials bool
	// MaxAge is how long browsers may cache a preflight answer; zero means
	// 10 minutes, a negative value disables caching.
	MaxAge time.Duration
}

// DefaultCORSHeaders are the request headers CORS always allows: those
// GraphQL clients send, and the preflight headers graft's CSRF protection
// asks for.
var DefaultCORSHeaders = []string{
	"Accept",
	"Authorization",
	"Content-Type",
	"client-require-preflight",
	"apollo-require-preflight",
	"x-apollo-operation-name",
	"graphql-preflight",
}

// CORS returns middleware answering CORS preflight requests and adding CORS
// headers to responses for GET, POST and OPTIONS, using github.com/rs/cors.
// Wrap the whole mux with it so health routes and GraphiQL share the policy:
//
//	http.ListenAndServe(":4000", graft.CORS(graft.CORSOptions{})(mux))
func CORS(opts CORSOptions) func(http.Handler) http.Handler {
	origins := opts.AllowedOrigins
	if len(origins) == 0 {
		origins = []string{"*"}
	}
	maxAge := 600
	switch {
	case opts.MaxAge < 0:
		maxAge = -1
	case opts.MaxAge > 0:
		maxAge = int(opts.MaxAge / time.Second)
	}
	headers := append(append([]string(nil), DefaultCORSHeaders...), opts.AllowedHeaders...)
	c := cors.New(cors.Options{
		AllowedOrigins:   origins,
		AllowedMethods:   []string{http.MethodGet, http.MethodPost, http.MethodOptions},
		AllowedHeaders:   headers,
		ExposedHeaders:   opts.ExposedHeaders,
		AllowCredentials: opts.AllowCredentials,
		MaxAge:           maxAge,
	})
	return c.Handler
}
