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
	ls := len(s)
	n := len(buf)
	if cap(buf)-n < max(ls+2, 34) {
		buf = slices.Grow(buf, max(ls+2, 34))
	}
	// A short plain string, the usual case, is tested and copied with the
	// same loaded words: no loop and no call to memmove. Overlapping
	// words cover lengths that are not a multiple of the word.
	switch {
	case ls >= 8 && ls <= 16:
		a, b := load64(s), load64(s[ls-8:])
		if plainWords(a, b) {
			d := (*[34]byte)(buf[n : n+34])
			d[0] = '"'
			binary.LittleEndian.PutUint64(d[1:], a)
			binary.LittleEndian.PutUint64(d[ls-7:], b)
			d[ls+1] = '"'
			return buf[:n+ls+2]
		}
	case ls >= 4 && ls < 8:
		a, b := load32(s), load32(s[ls-4:])
		if plainWord(uint64(a) | uint64(b)<<32) {
			d := (*[34]byte)(buf[n : n+34])
			d[0] = '"'
			binary.LittleEndian.PutUint32(d[1:], a)
			binary.LittleEndian.PutUint32(d[ls-3:], b)
			d[ls+1] = '"'
			return buf[:n+ls+2]
		}
	case ls > 16 && ls <= 32:
		a, b := load64(s), load64(s[8:])
		c, e := load64(s[ls-16:]), load64(s[ls-8:])
		if plainWords(a, b) && plainWords(c, e) {
			d := (*[34]byte)(buf[n : n+34])
			d[0] = '"'
			binary.LittleEndian.PutUint64(d[1:], a)
			binary.LittleEndian.PutUint64(d[9:], b)
			binary.LittleEndian.PutUint64(d[ls-15:], c)
			binary.LittleEndian.PutUint64(d[ls-7:], e)
			d[ls+1] = '"'
			return buf[:n+ls+2]
		}
	case ls > 0 && ls < 4:
		// The first, middle and last bytes cover all of s, padded with
		// a plain 'a'.
		c0, c1, c2 := s[0], s[ls>>1], s[ls-1]
		if plainWord(0x6161616161000000 | uint64(c0) | uint64(c1)<<8 | uint64(c2)<<16) {
			d := (*[34]byte)(buf[n : n+34])
			d[0] = '"'
			d[1] = c0
			d[1+ls>>1] = c1
			d[ls] = c2
			d[ls+1] = '"'
			return buf[:n+ls+2]
		}
	default:
		if plainString(s) {
			d := buf[n : n+ls+2]
			d[0] = '"'
			copy(d[1:], s)
			d[ls+1] = '"'
			return buf[:n+ls+2]
		}
	}
	return appendEscaped(buf, s)
}

// plainString reports whether every byte of s is ASCII that a JSON string
// carries as it is, so s can be copied whole: most strings in a response
// are. It tests 8 bytes at a time, overlapping words covering what is
// left, and pads strings under 4 bytes with a plain 'a'.
func plainString(s string) bool {
	n := len(s)
	switch {
	case n >= 8:
		i := 0
		for ; i+16 <= n; i += 16 {
			if !plainWords(load64(s[i:]), load64(s[i+8:])) {
				return false
			}
		}
		if i+8 <= n {
			if !plainWord(load64(s[i:])) {
				return false
			}
			i += 8
		}
		return i == n || plainWord(load64(s[n-8:]))
	case n >= 4:
		return plainWord(uint64(load32(s)) | uint64(load32(s[n-4:]))<<32)
	case n == 0:
		return true
	}
	x := uint64(0x6161616161616161)&^0xff | uint64(s[0])
	if n > 1 {
		x = x&^0xff00 | uint64(s[1])<<8
	}
	if n > 2 {
		x = x&^0xff0000 | uint64(s[2])<<16
	}
	return plainWord(x)
}

// load64 returns the first 8 bytes of s as a little-endian word.
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// load32 returns the first 4 bytes of s as a little-endian word.
func load32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
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
	return plainWord(load64(s))
}

// plainWords is plainWord(x) && plainWord(y), with one branch.
func plainWords(x, y uint64) bool {
	return (unplain(x)|unplain(y))&highs == 0
}

// highs is the high bit of every byte of a word.
const highs = 0x8080808080808080

// unplain returns a word with a high bit (highs) set when some byte of x is
// not plain, and none when every byte is. Per byte, after XOR with '"' or
// '\', subtracting 1 sets the high bit where the byte was that character
// or is from 0x80 (a XOR leaves such a byte's high bit set and, for at
// least one of the two, other bits too, so the subtraction keeps it);
// subtracting 0x20 sets it below 0x20. A plain byte borrows from no other,
// so only a byte that is not plain can carry a borrow into the bytes above
// it, which are then flagged too.
func unplain(x uint64) uint64 {
	const ones = 0x0101010101010101
	return (x - 0x20*ones) | ((x ^ '"'*ones) - ones) | ((x ^ '\\'*ones) - ones)
}

// plainWord is plain8 for the bytes of x, testing them together.
func plainWord(x uint64) bool {
	return unplain(x)&highs == 0
}
