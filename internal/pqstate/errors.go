package pqstate

import (
	"net/http"
	"strings"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/graftgql/graft/internal/gqlerr"
)

// NotFoundCacheControl is the Cache-Control header sent with
// PERSISTED_QUERY_NOT_FOUND, so that no cache keeps the miss and the client's
// retry with the full query reaches the server.
const NotFoundCacheControl = "private, no-cache, must-revalidate"

// Error is what Resolve returns when a request cannot go on: the HTTP status,
// the headers the router must send and the GraphQL error for the response
// body. It wraps one of the typed errors of package persisted (such as
// *PersistedQueryNotFoundError), so errors.As finds them.
//
// Routers send Err unchanged: clients match its message and code, so no
// error presenter or masking may rewrite it (see Public).
type Error struct {
	// Status is the HTTP status of the response.
	Status int
	// CacheControl, when not empty, is the Cache-Control header to send.
	CacheControl string
	// Allow, when not empty, is the Allow header to send (with 405).
	Allow string
	// Err is the GraphQL error for the response's errors list.
	Err *gqlerror.Error

	cause error
}

// Error returns the GraphQL error's message.
func (e *Error) Error() string { return e.Err.Message }

// Unwrap returns the typed error behind e.
func (e *Error) Unwrap() error { return e.cause }

// Public reports that the error must reach the client exactly as it is: an
// error presenter or masking must leave it alone. It is always true; routers
// test for the method with interface{ Public() bool }.
func (e *Error) Public() bool { return true }

func newError(status int, code, message string, ext map[string]any, cause error) *Error {
	if ext == nil {
		ext = make(map[string]any, 1)
	}
	ext["code"] = code
	return &Error{
		Status: status,
		Err:    &gqlerror.Error{Message: message, Extensions: ext},
		cause:  cause,
	}
}

// ErrNotSupported returns the error a router without persisted queries
// answers when a request carries extensions.persistedQuery: status 200, code
// PERSISTED_QUERY_NOT_SUPPORTED, message PersistedQueryNotSupported. Apollo
// clients read it and send the full query from then on.
func ErrNotSupported() *Error {
	return newError(http.StatusOK, gqlerr.PersistedQueryNotSupported, "PersistedQueryNotSupported", nil, &PersistedQueryNotSupportedError{})
}

// Requested reports whether request extensions carry a persistedQuery
// entry, whatever its shape. A router without persisted queries answers such
// a request with ErrNotSupported.
func Requested(extensions map[string]any) bool {
	v, ok := extensions["persistedQuery"]
	return ok && v != nil
}

func errNotFound(hash string) *Error {
	hash = strings.Clone(hash) // it may share the request's memory
	e := newError(http.StatusOK, gqlerr.PersistedQueryNotFound, "PersistedQueryNotFound", nil, &PersistedQueryNotFoundError{Hash: hash})
	e.CacheControl = NotFoundCacheControl
	return e
}

// maxEchoedHash is the longest hash or documentId a refusal echoes in
// its extensions (a SHA-512 in hex): a client's longer id is not sent
// back, so a large one does not make a large answer.
const maxEchoedHash = 128

func errNotAllowed(hash string) *Error {
	hash = strings.Clone(hash)
	var ext map[string]any
	if len(hash) <= maxEchoedHash {
		ext = map[string]any{"hash": hash}
	}
	return newError(http.StatusForbidden, gqlerr.PersistedQueryNotAllowed, "Persisted query not in safelist",
		ext, &PersistedQueryNotAllowedError{Hash: hash})
}

func errHashMismatch(provided, computed string) *Error {
	provided = strings.Clone(provided)
	return newError(http.StatusBadRequest, gqlerr.PersistedQueryHashMismatch, "Provided query does not match hash",
		map[string]any{"providedHash": provided, "computedHash": computed},
		&PersistedQueryHashMismatchError{ProvidedHash: provided, ComputedHash: computed})
}

func errVersion(v float64) *Error {
	cause := &PersistedQueryVersionError{Version: v}
	return newError(http.StatusBadRequest, gqlerr.PersistedQueryVersionNotSupported, cause.Error(),
		map[string]any{"version": v}, cause)
}

func errStoreUnavailable(err error) *Error {
	return newError(http.StatusServiceUnavailable, gqlerr.PersistedQueryStoreUnavailable,
		"Persisted query store unavailable", nil, &StoreUnavailableError{Err: err})
}

func errInvalid(reason string) *Error {
	return newError(http.StatusBadRequest, gqlerr.BadRequest, reason, nil, &InvalidExtensionError{Reason: reason})
}

func errGetNotEnabled() *Error {
	cause := &GetNotEnabledError{}
	e := newError(http.StatusMethodNotAllowed, gqlerr.MethodNotAllowed, cause.Error(), nil, cause)
	e.Allow = http.MethodPost
	return e
}
