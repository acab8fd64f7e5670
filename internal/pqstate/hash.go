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
// length, and false otherwise. It reads h once, without a branch per
// digit, and allocates only when h has uppercase digits.
func normalizeHash(algorithm, h string) (string, bool) {
	if len(h) != hashLength(algorithm) {
		return "", false
	}
	var seen uint8
	for i := 0; i < len(h); i++ {
		seen |= hexClass[h[i]]
	}
	switch {
	case seen&hexInvalid != 0:
		return "", false
	case seen&hexUpper != 0:
		return strings.ToLower(h), true
	}
	return h, true
}

// The classes of bytes in a hash: hexClass gives each byte its class.
const (
	hexLower   = 1 << iota // 0-9, a-f
	hexUpper               // A-F
	hexInvalid             // anything else
)

var hexClass = func() (t [256]uint8) {
	for c := range t {
		switch {
		case '0' <= c && c <= '9', 'a' <= c && c <= 'f':
			t[c] = hexLower
		case 'A' <= c && c <= 'F':
			t[c] = hexUpper
		default:
			t[c] = hexInvalid
		}
	}
	return t
}()
