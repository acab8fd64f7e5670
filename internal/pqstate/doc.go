// Package pqstate is the persisted-query state machine the router runs:
// New checks a persisted.Options and fills in its defaults, Resolve (and
// ResolveExtension, for an extension already decoded) turns a request's
// query and extensions.persistedQuery into the query to run or into an
// *Error carrying the HTTP status, headers and GraphQL error of the wire
// contract, and Register stores a query once the router has parsed and
// validated it, so an invalid query is never stored.
//
// Users configure persisted queries with package persisted; this package is
// internal so that the state machine can change without changing the API.
package pqstate
