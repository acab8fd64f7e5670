package scalars

import (
	"errors"
	"fmt"
	"strings"

	"github.com/graftgql/graft/internal/coerce"
)

// UUID is the Go type of the UUID scalar: the 16 bytes of an RFC 9562
// UUID. It is written in the canonical lower-case form
// "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"; input may be upper or lower
// case, optionally in braces or after "urn:uuid:".
type UUID [16]byte

var errUUIDForm = errors.New("want 32 hexadecimal digits in groups of 8-4-4-4-12")

// ParseUUID parses a UUID in any of the forms the scalar accepts.
func ParseUUID(s string) (UUID, error) {
	var u UUID
	t := s
	if len(t) == 38 && t[0] == '{' && t[37] == '}' {
		t = t[1:37]
	} else if len(t) == 45 && strings.EqualFold(t[:9], "urn:uuid:") {
		t = t[9:]
	}
	if len(t) != 36 || t[8] != '-' || t[13] != '-' || t[18] != '-' || t[23] != '-' {
		return u, errUUIDForm
	}
	// The pairs of digits start at fixed positions, stepping over the
	// hyphens checked above: any other character is refused.
	for i, j := 0, 0; j < 16; i, j = i+2, j+1 {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			i++
		}
		hi, ok1 := unhex(t[i])
		lo, ok2 := unhex(t[i+1])
		if !ok1 || !ok2 {
			return u, errUUIDForm
		}
		u[j] = hi<<4 | lo
	}
	return u, nil
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// String returns the canonical form of u.
func (u UUID) String() string { return string(u.appendTo(nil)) }

const hexDigits = "0123456789abcdef"

func (u UUID) appendTo(buf []byte) []byte {
	for i, b := range u {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			buf = append(buf, '-')
		}
		buf = append(buf, hexDigits[b>>4], hexDigits[b&0xf])
	}
	return buf
}

func appendUUID(buf []byte, u *UUID) ([]byte, error) {
	buf = append(buf, '"')
	buf = u.appendTo(buf)
	return append(buf, '"'), nil
}

func parseUUID(v any) (UUID, error) {
	s, ok := v.(string)
	if !ok {
		return UUID{}, fmt.Errorf("UUID cannot represent a non string value: %s", coerce.Describe(v))
	}
	u, err := ParseUUID(s)
	if err != nil {
		return u, fmt.Errorf("UUID cannot represent %s: %v", coerce.Describe(v), err)
	}
	return u, nil
}
