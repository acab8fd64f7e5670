package persisted

import "strings"

// ParseDocumentID reads a persisted document id as the GraphQL-over-HTTP
// persisted-documents proposal writes them: "sha256:<hex>" (or
// "sha512:<hex>") names a document by its hash, and any other
// "<prefix>:<id>" is a custom id. A bare hex hash of sha256 or sha512
// length, as GraphQL Code Generator's client preset sends by default, is a
// hash too. It returns the lowercase hex hash and its algorithm, or the
// id itself as key for a custom id (algorithm ""); ok is false for an id
// of neither form (empty, a "sha256:" prefix without a hash of that
// length, no prefix and not a hash).
func ParseDocumentID(id string) (key, algorithm string, ok bool) {
	prefix, rest, hasPrefix := strings.Cut(id, ":")
	if !hasPrefix {
		alg := algorithmForLength(len(id))
		if alg == "" || !isHex(id) {
			return "", "", false
		}
		return toLowerHex(id), alg, true
	}
	switch strings.ToLower(prefix) {
	case SHA256, SHA512:
		alg := strings.ToLower(prefix)
		if algorithmForLength(len(rest)) != alg || !isHex(rest) {
			return "", "", false
		}
		return toLowerHex(rest), alg, true
	}
	if prefix == "" || rest == "" {
		return "", "", false
	}
	return id, "", true
}
