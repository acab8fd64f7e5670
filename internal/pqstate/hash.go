package pqstate

import (
	"crypto/sha256"
	"crypto/sha512"
	"strings"

	"github.com/graftgql/graft/persisted"
)

// hashLength returns the length in hex digits of the algorithm's hashes, or
// 0 for an unknown algorithm.
func hashLength(algorithm string) int {
	switch algorithm {
	case "", persisted.SHA256:
		return 2 * sha256.Size
	case persisted.SHA512:
		return 2 * sha512.Size
	}
	return 0
}

// normalizeHash returns h in lowercase when it is hex of the algorithm's
// length, and false otherwise. It reads h once and allocates only when h has
// uppercase digits.
func normalizeHash(algorithm, h string) (string, bool) {
	if len(h) != hashLength(algorithm) {
		return "", false
	}
	upper := false
	for i := 0; i < len(h); i++ {
		switch c := h[i]; {
		case '0' <= c && c <= '9', 'a' <= c && c <= 'f':
		case 'A' <= c && c <= 'F':
			upper = true
		default:
			return "", false
		}
	}
	if upper {
		return strings.ToLower(h), true
	}
	return h, true
}
