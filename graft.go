// Package graft serves a GraphQL schema over HTTP.
//
// Build a schema in Go with package schema, put the services resolvers
// need in a Layer, and hand both to NewRouter with a Config (or one read by
// ConfigFromEnv). The *Router is an http.Handler serving GraphQL-over-HTTP
// at Config.Path and, when configured, GraphiQL; Serve runs it with
// graceful shutdown, NewWebHandler answers one request at a time in the
// shape of a fetch handler, Router.Execute runs a request without HTTP, and
// the adapter packages host the same pipeline on fasthttp and AWS Lambda.
//
// Every request goes through one pipeline: decode, persisted
// queries (persisted), the document cache (parse, validate, plan once), operation
// selection, variable coercion, the limits analysis (limits), and
// execution, which writes the JSON response straight into a pooled buffer.
// Every bad input gets a GraphQL error with a stable extensions.code; no
// panic escapes and no internal detail reaches the client.
package graft
