package persisted

import (
	"github.com/graftgql/graft/internal/gqlerr"
	"math"
	"net/http"
	"strconv"

	"github.com/vektah/gqlparser/v2/gqlerror"
)

// NotFoundCacheControl is the Cache-Control header sent with
// PERSISTED_QUERY_NOT_FOUND, so that no cache keeps the miss and the client's
// retry with the full query reaches the server.
const NotFoundCacheControl = "private, no-cache, must-revalidate"

// Error is what Resolve returns when a request cannot go on: the HTTP status,
// the headers the router must send and the GraphQL error for the response
// body. It wraps one of the typed errors of this package (such as
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

// PersistedQueryNotSupportedError is behind ErrNotSupported.
type PersistedQueryNotSupportedError struct{}

// Error returns the error's message.
func (*PersistedQueryNotSupportedError) Error() string { return "PersistedQueryNotSupported" }

// PersistedQueryNotFoundError is returned in APQ mode when a request sends
// only a hash that the store does not know.
type PersistedQueryNotFoundError struct {
	Hash string
}

// Error returns the error's message.
func (*PersistedQueryNotFoundError) Error() string { return "PersistedQueryNotFound" }

func errNotFound(hash string) *Error {
	e := newError(http.StatusOK, gqlerr.PersistedQueryNotFound, "PersistedQueryNotFound", nil, &PersistedQueryNotFoundError{Hash: hash})
	e.CacheControl = NotFoundCacheControl
	return e
}

// PersistedQueryNotAllowedError is returned in safelist mode for a hash, or
// the hash of a plain query, that is not in the list.
type PersistedQueryNotAllowedError struct {
	Hash string
}

// Error returns the error's message.
func (*PersistedQueryNotAllowedError) Error() string { return "Persisted query not in safelist" }

func errNotAllowed(hash string) *Error {
	return newError(http.StatusForbidden, gqlerr.PersistedQueryNotAllowed, "Persisted query not in safelist",
		map[string]any{"hash": hash}, &PersistedQueryNotAllowedError{Hash: hash})
}

// PersistedQueryHashMismatchError is returned when a request sends a hash
// and a query whose hash differs, with ValidateHash on.
type PersistedQueryHashMismatchError struct {
	ProvidedHash string
	ComputedHash string
}

// Error returns the error's message.
func (*PersistedQueryHashMismatchError) Error() string { return "Provided query does not match hash" }

func errHashMismatch(provided, computed string) *Error {
	return newError(http.StatusBadRequest, gqlerr.PersistedQueryHashMismatch, "Provided query does not match hash",
		map[string]any{"providedHash": provided, "computedHash": computed},
		&PersistedQueryHashMismatchError{ProvidedHash: provided, ComputedHash: computed})
}

// PersistedQueryVersionError is returned for an extensions.persistedQuery
// version other than 1.
type PersistedQueryVersionError struct {
	Version float64
}

// Error returns the error's message.
func (e *PersistedQueryVersionError) Error() string {
	return "Unsupported persisted query version: " + formatVersion(e.Version)
}

// formatVersion prints whole versions as integers (2, not 2e+00) and
// anything else, such as 1.5 or 1e300, in its shortest form.
func formatVersion(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func errVersion(v float64) *Error {
	cause := &PersistedQueryVersionError{Version: v}
	return newError(http.StatusBadRequest, gqlerr.PersistedQueryVersionNotSupported, cause.Error(),
		map[string]any{"version": v}, cause)
}

// StoreUnavailableError is returned in safelist mode when the store cannot
// answer: the list cannot be checked, so the request is refused (status 503).
// Err is the store's error; it is logged, never sent to the client.
type StoreUnavailableError struct {
	Err error
}

// Error returns the error's message.
func (e *StoreUnavailableError) Error() string {
	return "persisted: store unavailable: " + e.Err.Error()
}

// Unwrap returns the store's error.
func (e *StoreUnavailableError) Unwrap() error { return e.Err }

func errStoreUnavailable(err error) *Error {
	return newError(http.StatusServiceUnavailable, gqlerr.PersistedQueryStoreUnavailable,
		"Persisted query store unavailable", nil, &StoreUnavailableError{Err: err})
}

// InvalidExtensionError is returned when extensions.persistedQuery is not
// of the expected shape, or its hash is not hex of the algorithm's length
// (status 400, code BAD_REQUEST). Reason is the message sent to the client.
type InvalidExtensionError struct {
	Reason string
}

// Error returns the error's message.
func (e *InvalidExtensionError) Error() string { return e.Reason }

func errInvalid(reason string) *Error {
	return newError(http.StatusBadRequest, gqlerr.BadRequest, reason, nil, &InvalidExtensionError{Reason: reason})
}

// GetNotEnabledError is returned for a GET request when Options.EnableGet is
// off (status 405, Allow: POST).
type GetNotEnabledError struct{}

// Error returns the error's message.
func (*GetNotEnabledError) Error() string {
	return "GET requests are not enabled for persisted queries; use POST"
}

func errGetNotEnabled() *Error {
	cause := &GetNotEnabledError{}
	e := newError(http.StatusMethodNotAllowed, gqlerr.MethodNotAllowed, cause.Error(), nil, cause)
	e.Allow = http.MethodPost
	return e
}
