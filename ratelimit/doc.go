// Package ratelimit bounds what each client may spend over time, in the
// points of graft's cost analysis: a budget of points per window for each
// key (a user, an API key, a client address), as GitHub's and Shopify's
// GraphQL APIs do.
//
// A Limiter is a graft.Hook. Before each operation runs it charges the
// operation's computed cost (limits.Result.Complexity) to the request's
// key; an operation that would take the key past its budget is refused
// with status 429, a Retry-After header and a GraphQL error of code
// RATE_LIMITED, and is not charged. Every answer within the budget
// carries extensions.cost:
//
//	"cost": {"requested": 12, "limit": 1000, "remaining": 988, "resetAt": "2026-11-27T17:05:00Z"}
//
// Each operation of an HTTP batch and each subscribe (on every streaming
// transport) is charged as an operation of its own. With
// Options.ChargeExecuted the charge becomes the cost actually executed
// (one point per field resolved) once the operation has run.
//
// A MemoryStore keeps the spending of one instance; package redislimit
// keeps it in Redis, so that every instance behind a load balancer
// enforces one budget.
package ratelimit
