package pqstate

import (
	"math"
	"strconv"
)

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

// PersistedQueryNotAllowedError is returned in safelist mode for a hash, or
// the hash of a plain query, that is not in the list.
type PersistedQueryNotAllowedError struct {
	Hash string
}

// Error returns the error's message.
func (*PersistedQueryNotAllowedError) Error() string { return "Persisted query not in safelist" }

// PersistedQueryHashMismatchError is returned when a request sends a hash
// and a query whose hash differs, with ValidateHash on.
type PersistedQueryHashMismatchError struct {
	ProvidedHash string
	ComputedHash string
}

// Error returns the error's message.
func (*PersistedQueryHashMismatchError) Error() string { return "Provided query does not match hash" }

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

// InvalidExtensionError is returned when extensions.persistedQuery is not
// of the expected shape, or its hash is not hex of the algorithm's length
// (status 400, code BAD_REQUEST). Reason is the message sent to the client.
type InvalidExtensionError struct {
	Reason string
}

// Error returns the error's message.
func (e *InvalidExtensionError) Error() string { return e.Reason }

// GetNotEnabledError is returned for a GET request when Options.EnableGet is
// off (status 405, Allow: POST).
type GetNotEnabledError struct{}

// Error returns the error's message.
func (*GetNotEnabledError) Error() string {
	return "GET requests are not enabled for persisted queries; use POST"
}
