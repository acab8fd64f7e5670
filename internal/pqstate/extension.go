package pqstate

import (
	"encoding/json"
)

// readExtension checks the shape of extensions.persistedQuery and returns
// the hash it names in lowercase, and the hash as the client sent it.
func (p *PersistedQueries) readExtension(raw any) (hash, provided string, perr *Error) {
	m, ok := raw.(map[string]any)
	if !ok {
		return "", "", errInvalid("extensions.persistedQuery must be an object")
	}
	v, ok := m["version"]
	if !ok || v == nil {
		return "", "", errInvalid("extensions.persistedQuery.version is required")
	}
	version, ok := toNumber(v)
	if !ok {
		return "", "", errInvalid("extensions.persistedQuery.version must be a number")
	}
	if version != 1 {
		return "", "", errVersion(version)
	}
	key := p.hashKey
	h, ok := m[key]
	if (!ok || h == nil) && key != sha256Key {
		key = sha256Key
		h, ok = m[key]
	}
	if !ok || h == nil {
		return "", "", errInvalid("extensions.persistedQuery." + p.hashKey + " is required")
	}
	s, ok := h.(string)
	if !ok {
		return "", "", errInvalid("extensions.persistedQuery." + key + " must be a string")
	}
	norm, ok := normalizeHash(p.algorithm, s)
	if !ok {
		return "", "", errInvalid(p.malformedHash[key])
	}
	return norm, s, nil
}

const (
	sha256Key = "sha256Hash"
	sha512Key = "sha512Hash"
)

// toNumber returns v as a float64 when it is a JSON number, whichever way it
// was decoded.
func toNumber(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case float32:
		return float64(n), true
	}
	return 0, false
}
