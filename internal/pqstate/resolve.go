package pqstate

import (
	"context"
	"errors"
	"log/slog"
	"strings"

	"github.com/graftgql/graft/internal/pqattach"
	"github.com/graftgql/graft/persisted"
)

// Resolution is the outcome of Resolve for a request that may go on.
type Resolution struct {
	// Query is the query text to run. It is empty only for a plain request
	// without a query, which the router rejects as usual.
	Query string
	// Hash is the query's hash, in lowercase hex, when the request named
	// one or the query was matched against a safelist. Routers may key
	// their document cache by it. Like the request's query, it may share
	// the request's memory (see httpapi.Request.PersistedQuery): whoever
	// keeps it beyond the request keeps a copy. Register copies it.
	Hash string
	// Persisted reports that the query was named by, or checked by, its
	// hash: it came from the store, is to be registered, or is a listed
	// plain query.
	Persisted bool
	// Slot, when not nil, is the slot of the stored entry the query came
	// from (an in-process store): the router may attach the query's
	// prepared document to it and find it there on the next request.
	Slot *pqattach.Slot
	// Register asks the router to call PersistedQueries.Register(Hash,
	// Query) once the query has parsed and validated. Never true in
	// Safelist mode.
	Register bool
	// CacheControl, when not empty, is the Cache-Control header for the
	// response: set for GET requests whose query came from the store. The
	// router sends it only when the operation is a query and the response
	// has no errors, and makes it private (PrivateCacheControl) when the
	// request carries credentials (Authorization or Cookie) or an Auth hook
	// accepted a user, so a shared cache never gives one user's answer to
	// another.
	CacheControl string
}

// Resolve turns a request's query and extensions into the query to run.
// isGet says whether the request came over GET. The error, when not nil, is
// always an *Error ready to be sent (status, headers, GraphQL error).
//
// With extensions.persistedQuery (version 1 and a hash):
//   - a hash the store knows: its query runs; a different query sent with
//     it is refused with PERSISTED_QUERY_HASH_MISMATCH (400) when
//     ValidateHash is on, so what a proxy reads in the request is what runs
//     (with ValidateHash off the stored query runs);
//   - APQ, an unknown hash and no query: PERSISTED_QUERY_NOT_FOUND (200);
//   - APQ, an unknown hash and a query: the query runs and Register is set,
//     after checking that it hashes to the hash when ValidateHash is on
//     (else PERSISTED_QUERY_HASH_MISMATCH, 400);
//   - Safelist, an unknown hash: PERSISTED_QUERY_NOT_ALLOWED (403).
//
// Without it, APQ lets the query through untouched, and Safelist lets it
// through only when its exact text hashes to a listed entry (and
// RequireHash is off). A store that fails is a miss in APQ and a 503 in
// Safelist; both are logged.
func (p *PersistedQueries) Resolve(ctx context.Context, isGet bool, query string, extensions map[string]any) (Resolution, error) {
	if isGet && !p.enableGet {
		return Resolution{}, errGetNotEnabled()
	}
	raw, ok := extensions["persistedQuery"]
	if !ok || raw == nil {
		return p.resolvePlain(ctx, isGet, query)
	}
	hash, provided, perr := p.readExtension(raw)
	if perr != nil {
		return Resolution{}, perr
	}
	return p.resolveHash(ctx, isGet, query, hash, provided)
}

// Extension is extensions.persistedQuery already decoded, in the usual
// shape: a version number and the hashes as sent.
type Extension struct {
	Version    int64
	SHA256Hash string
	SHA512Hash string
	// LowerHex is set when SHA256Hash is known to be 64 lowercase hex
	// digits, so it needs no normalising.
	LowerHex bool
}

// ResolveExtension is Resolve for a request whose extensions hold only
// persistedQuery, already decoded into ext, so the hot path of hash-only
// requests needs no maps. It answers exactly as Resolve does.
func (p *PersistedQueries) ResolveExtension(ctx context.Context, isGet bool, query string, ext Extension) (Resolution, error) {
	// The common case, kept short so that it runs in few instructions
	// and cache lines: a lowercase SHA-256 hash, alone, found in the
	// memory store.
	if h := ext.SHA256Hash; p.mem != nil && query == "" && ext.Version == 1 && ext.LowerHex && !p.sha512 &&
		len(h) == p.hashLen && (!isGet || p.enableGet) {
		if e, ok := p.mem.Get(h); ok {
			return p.hit(isGet, h, e.Query, &e.Slot), nil
		}
	}
	return p.resolveExtension(ctx, isGet, query, ext)
}

// resolveExtension is ResolveExtension for every request.
func (p *PersistedQueries) resolveExtension(ctx context.Context, isGet bool, query string, ext Extension) (Resolution, error) {
	if isGet && !p.enableGet {
		return Resolution{}, errGetNotEnabled()
	}
	if ext.Version != 1 {
		return Resolution{}, errVersion(float64(ext.Version))
	}
	key, h := p.hashKey, ext.SHA256Hash
	if p.sha512 {
		if ext.SHA512Hash != "" {
			h = ext.SHA512Hash
		} else {
			key = sha256Key
		}
	}
	if h == "" {
		return Resolution{}, errInvalid("extensions.persistedQuery." + p.hashKey + " is required")
	}
	hash, ok := h, true
	if !ext.LowerHex || h != ext.SHA256Hash || len(h) != p.hashLen {
		hash, ok = normalizeHash(p.algorithm, h)
	}
	if !ok {
		return Resolution{}, errInvalid(p.malformedHash[key])
	}
	return p.resolveHash(ctx, isGet, query, hash, h)
}

// resolveHash runs the state machine for a request naming hash.
func (p *PersistedQueries) resolveHash(ctx context.Context, isGet bool, query, hash, provided string) (Resolution, error) {
	var (
		stored string
		slot   *pqattach.Slot
		found  bool
	)
	if p.mem != nil {
		// The memory store: the query and its entry's slot in one lookup.
		var e *pqattach.Entry
		if e, found = p.mem.Get(hash); found {
			stored, slot = e.Query, &e.Slot
		}
	} else {
		var perr *Error
		if stored, found, perr = p.lookup(ctx, hash); perr != nil {
			return Resolution{}, perr
		}
	}
	if found {
		if query != "" && query != stored && p.validateHash {
			if computed := persisted.Hash(p.algorithm, query); computed != hash {
				return Resolution{}, errHashMismatch(provided, computed)
			}
		}
		return p.hit(isGet, hash, stored, slot), nil
	}
	if p.safelist {
		return Resolution{}, errNotAllowed(hash)
	}
	if query == "" {
		return Resolution{}, errNotFound(hash)
	}
	if p.validateHash {
		if computed := persisted.Hash(p.algorithm, query); computed != hash {
			return Resolution{}, errHashMismatch(provided, computed)
		}
	}
	return Resolution{Query: query, Hash: hash, Persisted: true, Register: true}, nil
}

// resolvePlain handles a request without extensions.persistedQuery.
func (p *PersistedQueries) resolvePlain(ctx context.Context, isGet bool, query string) (Resolution, error) {
	if !p.safelist || query == "" {
		return Resolution{Query: query}, nil
	}
	hash := persisted.Hash(p.algorithm, query)
	if p.opts.RequireHash {
		return Resolution{}, errNotAllowed(hash)
	}
	stored, found, perr := p.lookup(ctx, hash)
	if perr != nil {
		return Resolution{}, perr
	}
	if !found || stored != query {
		return Resolution{}, errNotAllowed(hash)
	}
	return Resolution{Query: query, Hash: hash, Persisted: true, CacheControl: p.getCacheControl(isGet)}, nil
}

// lookup asks the store for hash. In APQ mode a failing store is logged and
// counts as a miss; in Safelist mode it is logged and refuses the request.
func (p *PersistedQueries) lookup(ctx context.Context, hash string) (string, bool, *Error) {
	if !p.keepsNoHash {
		hash = strings.Clone(hash) // the store may keep it (a local cache)
	}
	q, found, err := p.store.Get(ctx, hash)
	if err == nil {
		return q, found, nil
	}
	if p.safelist {
		p.logger.ErrorContext(ctx, "persisted: safelist store unavailable; refusing the request",
			slog.String("hash", hash), slog.Any("err", err))
		return "", false, errStoreUnavailable(err)
	}
	p.logger.Log(ctx, storeErrorLevel(err), "persisted: persisted query lookup failed; treating it as a miss",
		slog.String("hash", hash), slog.Any("err", err))
	return "", false, nil
}

// hit is the Resolution of a request whose hash the store knows: stored
// runs, and slot (nil for a store that keeps none) is its entry's.
func (p *PersistedQueries) hit(isGet bool, hash, stored string, slot *pqattach.Slot) Resolution {
	return Resolution{Query: stored, Hash: hash, Persisted: true, Slot: slot, CacheControl: p.getCacheControl(isGet)}
}

func (p *PersistedQueries) getCacheControl(isGet bool) string {
	if isGet {
		return p.cacheControl
	}
	return ""
}

// storeErrorLevel is the log level of a store failure: warn, or debug for a
// store that did not try because it knows it is down (persisted.ErrUnavailable).
func storeErrorLevel(err error) slog.Level {
	if errors.Is(err, persisted.ErrUnavailable) {
		return slog.LevelDebug
	}
	return slog.LevelWarn
}
