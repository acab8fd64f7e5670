package persisted

import (
	"context"
	"errors"
)

// Store keeps persisted queries by hash. Hashes reach a Store already
// normalised to lowercase hex. Implementations must be safe for concurrent
// use; any storage can implement it.
type Store interface {
	// Get returns the query stored under hash. A miss is ("", false, nil);
	// an error means the store could not answer.
	Get(ctx context.Context, hash string) (query string, found bool, err error)
	// Set stores query under hash.
	Set(ctx context.Context, hash, query string) error
}

// Lister is implemented by stores that can list every entry, such as
// *SafelistStore. In safelist mode the router uses it to
// validate every allowed query when it starts.
type Lister interface {
	// Entries returns a copy of every stored hash and its query.
	Entries() map[string]string
}

// ErrReadOnly is returned by Set on a read-only store.
var ErrReadOnly = errors.New("persisted: store is read-only")

// ErrUnavailable is wrapped by the errors of a Store that did not even try
// because it knows its backend is down (a circuit breaker is open). The
// failure that opened the breaker was logged as usual; these are logged at
// debug level only, so an outage does not write one warning per request.
var ErrUnavailable = errors.New("persisted: store unavailable")
