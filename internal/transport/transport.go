// Package transport is the contract between graft's pipeline and its
// streaming transports (WebSocket, Server-Sent Events, multipart HTTP, and
// the next one): what a transport asks of the pipeline (Pipeline,
// Operation) and the one Hub every transport reports its connections and
// subscriptions to, which owns their bounds and graceful shutdown.
//
// A transport is a unit: it matches its requests, serves them, starts each
// GraphQL operation through Pipeline.Start (the pipeline's door, which
// attaches the request state, the request ID and the hooks' run and
// answers refusals), sends the payloads Operation.Pump executes, and
// counts what it holds in the Hub. Adding a transport touches its own
// package and one registration line in the router.
package transport

import (
	"context"
	"net/http"

	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/httpapi"
	"github.com/graftgql/graft/internal/schemadef"
)

// Unit is a streaming transport as the router registers it: the router
// offers each request on the GraphQL path that is not a plain POST to its
// units in turn, and the first that matches serves it.
type Unit interface {
	// Match reports whether req is the transport's; it is called for
	// many requests and must not allocate.
	Match(req *http.Request) bool
	// ServeHTTP serves a request Match accepted.
	http.Handler
}

// Pipeline is the router as a transport sees it.
type Pipeline interface {
	// Start runs raw, a GraphQL request that came over HTTP, through the
	// door and the pipeline (CSRF prevention, Auth, decoding, persisted
	// queries, validation, limits) with ctx, which the transport cancels
	// to end a subscription. The operation is either a single answer or
	// a running subscription.
	Start(ctx context.Context, raw *httpapi.RawRequest) Operation
	// Refuse answers raw with e through the door (hooks, the access log
	// and metrics see it), as a transport refuses a request it cannot
	// serve (a bound reached, a protocol it does not speak).
	Refuse(ctx context.Context, raw *httpapi.RawRequest, e *httpapi.Error) *httpapi.Response
}

// Notifier is told of news in an operation's stream (Operation.Watch):
// the stream's queue's notifier. A transport's delivery state implements
// it itself, so that the source reads no closure between the two.
type Notifier = schemadef.Notifier

// NotifyFunc is a function as a Notifier.
type NotifyFunc func()

// Notify calls f.
func (f NotifyFunc) Notify() { f() }

// Operation is one GraphQL operation started through Pipeline.Start.
type Operation interface {
	// Response is the answer of an operation that is not a running
	// subscription (a query, a mutation, or the errors that kept a
	// subscription from starting); for a subscription, the status and
	// headers (the request ID) its stream is answered with.
	Response() *httpapi.Response
	// Streaming reports whether the operation is a running subscription.
	Streaming() bool
	// Pump executes each payload of a running subscription (each passes
	// the hooks' payload phase) and hands it to send, until the stream
	// ends (nil), send fails (its error) or the operation's context is
	// done (the context's error); the operation then leaves the pipeline,
	// which the hooks and the access log see.
	Pump(send func(payload []byte) error) error
	// Abandon ends a running subscription the transport cannot serve (a
	// bound reached after it started) with e as its answer.
	Abandon(e *httpapi.Error)
	// Watch, for a subscription whose source pushes its events (no
	// goroutine waits on it), registers notify, whose Notify the source
	// calls when events wait or the stream has ended (it must not block),
	// and reports true; it reports false for other operations, which the
	// transport runs with Pump.
	Watch(notify Notifier) bool
	// Drain executes the events waiting for a watched operation and
	// hands each to send; once send fails, the rest are dropped. It
	// reports whether the stream has ended: the operation has then left
	// the pipeline.
	Drain(send func(payload []byte) error) (ended bool)
}

// TooManyConnections is the answer when the connection bound is reached
// or the server is shutting down.
func TooManyConnections() *httpapi.Error {
	return &httpapi.Error{Status: http.StatusServiceUnavailable,
		Err: gqlerr.New(gqlerr.TooManyConnections, "Too many open connections: try again later")}
}

// TooManySubscriptions is the answer when a subscription bound is
// reached.
func TooManySubscriptions() *httpapi.Error {
	return &httpapi.Error{Status: http.StatusServiceUnavailable,
		Err: gqlerr.New(gqlerr.TooManySubscriptions, "Too many subscriptions: try again later")}
}

// WriteHTTP writes a whole answer to a net/http client.
func WriteHTTP(w http.ResponseWriter, resp *httpapi.Response) {
	h := w.Header()
	for k, v := range resp.Header {
		h[k] = append(h[k], v...)
	}
	if resp.ContentType != "" {
		h.Set("Content-Type", resp.ContentType)
	}
	w.WriteHeader(resp.Status)
	_, _ = w.Write(resp.Body)
}
