package persisted

import (
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"strings"
)

// The hash algorithms persisted queries may use.
const (
	SHA256 = "sha256"
	SHA512 = "sha512"
)

// Hash returns the lowercase hex hash of the exact bytes of query with the
// named algorithm ("sha256", the default when empty, or "sha512"). It
// returns "" for any other algorithm.
func Hash(algorithm, query string) string {
	switch algorithm {
	case "", SHA256:
		sum := sha256.Sum256([]byte(query))
		return hex.EncodeToString(sum[:])
	case SHA512:
		sum := sha512.Sum512([]byte(query))
		return hex.EncodeToString(sum[:])
	}
	return ""
}

// algorithmForLength returns the algorithm whose hex hashes have length n,
// or "".
func algorithmForLength(n int) string {
	switch n {
	case 2 * sha256.Size:
		return SHA256
	case 2 * sha512.Size:
		return SHA512
	}
	return ""
}

// isHex reports whether s is made only of hex digits, in either case.
func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// toLowerHex lowercases a hex string without allocating when it already is.
func toLowerHex(h string) string {
	for i := 0; i < len(h); i++ {
		if 'A' <= h[i] && h[i] <= 'F' {
			return strings.ToLower(h)
		}
	}
	return h
}
