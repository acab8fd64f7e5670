package persisted

import (
	"log/slog"
)

// Mode selects how persisted queries behave.
type Mode string

const (
	// APQ is Apollo's automatic persisted queries: a client sends a hash,
	// and when the server does not know it, the client retries with the
	// query, which the server then stores under the hash. Plain queries run
	// as usual.
	APQ Mode = "apq"
	// Safelist allows only the queries in a read-only list: by hash, or as
	// plain text whose hash is in the list.
	Safelist Mode = "safelist"
)

// DefaultCacheControl is the Cache-Control header of a successful GET whose
// query came from the store, when Options.CacheControl is empty. A router
// sends it only to requests without credentials; see Resolution.
const DefaultCacheControl = "public, max-age=60"

// DefaultRegistrationsPerMinute is the number of queries one client
// address may register in the APQ store each minute when
// Options.RegistrationsPerMinute is zero. A client registers each of its
// operations once, the first time it sends it; 60 a minute lets an
// application of hundreds of operations register them as its users reach
// them, while a client sending distinct queries to flush the store of
// DefaultStoreSize entries takes a quarter of an hour rather than a
// second.
const DefaultRegistrationsPerMinute = 60

// DefaultMaxQueryBytes is the largest query registered in the store when
// Options.MaxQueryBytes is zero: 128 KiB.
const DefaultMaxQueryBytes = 128 << 10

// Options configures persisted queries. The zero value is APQ with an
// in-memory store of DefaultStoreSize queries and DefaultStoreBytes bytes,
// GET enabled, hashes checked, sha256, and queries over
// DefaultMaxQueryBytes never stored.
type Options struct {
	// Mode is APQ (the default when empty) or Safelist.
	Mode Mode
	// Store keeps the queries. Nil means a new MemoryStore of
	// DefaultStoreSize entries and DefaultStoreBytes bytes in APQ mode; Safelist mode needs one (usually
	// a SafelistStore from a manifest).
	Store Store
	// EnableGet allows persisted queries over GET, so CDNs can cache them.
	// Nil means true. When false, the router answers every GET with 405 and
	// Allow: POST.
	EnableGet *bool
	// ValidateHash checks that a query sent with a hash hashes to it: on
	// registration, and when the hash is already stored (a different query
	// is refused with PERSISTED_QUERY_HASH_MISMATCH rather than silently
	// replaced by the stored one). Nil means true.
	//
	// Turning it off lets any client store any query under any hash: the
	// first client to register a hash decides what every later request for
	// it runs (APQ poisoning). Only do so behind trusted clients. With it
	// off, answers are never marked publicly cacheable.
	ValidateHash *bool
	// HashAlgorithm is "sha256" (the default when empty) or "sha512". With
	// sha512 the hash is read from extensions.persistedQuery.sha512Hash,
	// falling back to sha256Hash.
	HashAlgorithm string
	// RequireHash, in Safelist mode, refuses plain queries even when their
	// text is in the list, so every request must name its operation by hash.
	RequireHash bool
	// CacheControl is the Cache-Control header for successful GET requests
	// whose query came from the store. Empty means DefaultCacheControl. It
	// is made private (see PrivateCacheControl) when ValidateHash is off,
	// and a router makes it private for requests that carry credentials.
	CacheControl string
	// MaxQueryBytes bounds the queries registered in the store: a longer
	// query still runs but is not stored, so a client cannot fill the store
	// (or Redis) with a few huge queries. Zero means DefaultMaxQueryBytes.
	MaxQueryBytes int
	// RegistrationsPerMinute bounds the queries one client address
	// registers in the APQ store each minute: past it, the client's new
	// queries still run but are not stored, so one client cannot churn a
	// shared store and evict every other client's queries. Zero means
	// DefaultRegistrationsPerMinute; negative means unlimited. Behind a
	// proxy that hides client addresses, every client shares the proxy's
	// address: raise the limit, or bound registrations at the proxy and
	// set it negative.
	RegistrationsPerMinute int
	// Logger receives store failures. Nil means slog.Default().
	Logger *slog.Logger
}
