package pqstate

import (
	"context"

	"github.com/graftgql/graft/persisted"
)

// ResolveDocumentID resolves a request that names its document by
// documentId instead of sending a query (the GraphQL-over-HTTP
// persisted-documents proposal). A hash id ("sha256:<hex>", or bare hex)
// is looked up as a hash is for extensions.persistedQuery; a custom id
// ("<prefix>:<id>") is looked up as it is. Unknown ids answer as unknown
// hashes do: PERSISTED_QUERY_NOT_ALLOWED (403) in Safelist mode,
// PERSISTED_QUERY_NOT_FOUND in APQ mode; a malformed id answers 400
// BAD_REQUEST.
func (p *PersistedQueries) ResolveDocumentID(ctx context.Context, isGet bool, id string) (Resolution, error) {
	if isGet && !p.enableGet {
		return Resolution{}, errGetNotEnabled()
	}
	key, alg, ok := persisted.ParseDocumentID(id)
	if !ok {
		return Resolution{}, errInvalid("documentId " + quoteID(id) + " is neither sha256:<hex> nor <prefix>:<id>")
	}
	stored, found, perr := p.lookup(ctx, key)
	if perr != nil {
		return Resolution{}, perr
	}
	if !found {
		if p.safelist {
			return Resolution{}, errNotAllowed(key)
		}
		return Resolution{}, errNotFound(key)
	}
	hash := ""
	if alg != "" {
		hash = key
	}
	return p.hit(isGet, hash, stored, nil), nil
}

// quoteID quotes a client's id for an error message, cut to a bounded
// length.
func quoteID(id string) string {
	const maxEcho = 120
	if len(id) > maxEcho {
		id = id[:maxEcho] + "…"
	}
	return "\"" + id + "\""
}
