package schemadef

import (
	"encoding/binary"
	"slices"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// safeASCII reports the ASCII bytes that JSON strings carry unescaped.
var safeASCII = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// AppendJSONString appends s to buf as a JSON string literal. Quotes,
// backslashes and control characters are escaped, U+2028 and U+2029 are
// escaped for JavaScript, and bytes that are not valid UTF-8 become U+FFFD.
// HTML characters (<, >, &) are left as they are.
func AppendJSONString(buf []byte, s string) []byte {
	// Copy s between quotes first, then check the copy a word at a time:
	// most strings need no escaping. The 8 bytes of slack after the
	// closing quote make the last word of the copy readable.
	n := len(buf)
	end := n + len(s) + 2
	if cap(buf)-end < 8 {
		buf = slices.Grow(buf, len(s)+2+8)
	}
	buf = buf[:end]
	buf[n] = '"'
	copy(buf[n+1:], s)
	buf[end-1] = '"'
	if plainCopy(buf[n+1:end+8], len(s)) {
		return buf
	}
	return appendEscaped(buf[:n], s)
}

// plainCopy reports whether the first k bytes of b (which has at least 8
// bytes more) are all plain8.
func plainCopy(b []byte, k int) bool {
	i := 0
	for ; i+8 <= k; i += 8 {
		if !plainWord(binary.LittleEndian.Uint64(b[i:])) {
			return false
		}
	}
	if rem := k - i; rem > 0 {
		// The bytes after the copy are replaced by a plain 'a'.
		mask := uint64(1)<<(8*rem) - 1
		x := binary.LittleEndian.Uint64(b[i:])&mask | 0x6161616161616161&^mask
		return plainWord(x)
	}
	return true
}

// appendEscaped is AppendJSONString for a string that needs escaping.
func appendEscaped(buf []byte, s string) []byte {
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		// Skip eight plain ASCII bytes at a time: most strings need no
		// escaping at all.
		for i+8 <= len(s) && plain8(s[i:i+8]) {
			i += 8
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if safeASCII[c] {
				i++
				continue
			}
			buf = append(buf, s[start:i]...)
			switch c {
			case '"', '\\':
				buf = append(buf, '\\', c)
			case '\n':
				buf = append(buf, '\\', 'n')
			case '\r':
				buf = append(buf, '\\', 'r')
			case '\t':
				buf = append(buf, '\\', 't')
			case '\b':
				buf = append(buf, '\\', 'b')
			case '\f':
				buf = append(buf, '\\', 'f')
			default:
				buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			buf = append(buf, s[start:i]...)
			buf = append(buf, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// plain8 reports whether the eight bytes of s are ASCII that a JSON string
// carries as it is (no control character, quote or backslash).
func plain8(s string) bool {
	return plainWord(uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56)
}

// plainWord is plain8 for the bytes of x, testing them together.
func plainWord(x uint64) bool {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	less := (x - 0x20*ones) &^ x // a high bit where a byte is below 0x20
	q := x ^ ('"' * ones)
	quote := (q - ones) &^ q // a high bit where a byte is '"'
	b := x ^ ('\\' * ones)
	backslash := (b - ones) &^ b // a high bit where a byte is '\\'
	return (less|quote|backslash|x)&highs == 0
}
