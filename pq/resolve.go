package pq

import (
	"context"
	"log/slog"
)

// Resolution is the outcome of Resolve for a request that may go on.
type Resolution struct {
	// Query is the query text to run. It is empty only for a plain request
	// without a query, which the router rejects as usual.
	Query string
	// Hash is the query's hash, in lowercase hex, when the request named
	// one or the query was matched against a safelist. Routers may key
	// their document cache by it.
	Hash string
	// Persisted reports that the query was named by, or checked by, its
	// hash: it came from the store, is to be registered, or is a listed
	// plain query.
	Persisted bool
	// Register asks the router to call PersistedQueries.Register(Hash,
	// Query) once the query has parsed and validated. Never true in
	// Safelist mode.
	Register bool
	// CacheControl, when not empty, is the Cache-Control header for the
	// response: set for GET requests whose query came from the store. The
	// router sends it only when the operation is a query and the response
	// has no errors.
	CacheControl string
}

// Resolve turns a request's query and extensions into the query to run.
// isGet says whether the request came over GET. The error, when not nil, is
// always an *Error ready to be sent (status, headers, GraphQL error).
//
// With extensions.persistedQuery (version 1 and a hash):
//   - a hash the store knows: its query runs, whatever query was sent;
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
	stored, found, perr := p.lookup(ctx, hash)
	if perr != nil {
		return Resolution{}, perr
	}
	if found {
		return Resolution{Query: stored, Hash: hash, Persisted: true, CacheControl: p.getCacheControl(isGet)}, nil
	}
	if p.safelist {
		return Resolution{}, errNotAllowed(hash)
	}
	if query == "" {
		return Resolution{}, errNotFound(hash)
	}
	if p.validateHash {
		if computed := Hash(p.algorithm, query); computed != hash {
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
	hash := Hash(p.algorithm, query)
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
	q, found, err := p.store.Get(ctx, hash)
	if err == nil {
		return q, found, nil
	}
	if p.safelist {
		p.logger.ErrorContext(ctx, "pq: safelist store unavailable; refusing the request",
			slog.String("hash", hash), slog.Any("err", err))
		return "", false, errStoreUnavailable(err)
	}
	p.logger.WarnContext(ctx, "pq: persisted query lookup failed; treating it as a miss",
		slog.String("hash", hash), slog.Any("err", err))
	return "", false, nil
}

func (p *PersistedQueries) getCacheControl(isGet bool) string {
	if isGet {
		return p.cacheControl
	}
	return ""
}
