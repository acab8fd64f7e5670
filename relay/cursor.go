package relay

import (
	"encoding/base64"
	"math"
	"strconv"
	"unsafe"
)

// cursorVersion is the first byte of every cursor; a cursor of another
// version is refused, so the format can change without misreading old
// cursors.
const cursorVersion = 1

// cursorHeader is the version byte and the 4-byte hash of the connection.
const cursorHeader = 5

// maxKeyLen bounds the key a cursor holds, and so the text decodeCursor
// reads: Keyset refuses to write the cursor of a longer key, which it
// could not read back.
const maxKeyLen = 512

var cursorEncoding = base64.RawURLEncoding

// cursorDecoding reads cursors: Strict refuses the texts that differ from
// what cursorWriter writes only in the unused bits of their last
// character.
var cursorDecoding = base64.RawURLEncoding.Strict()

// connectionHash identifies a connection in its cursors: the name of its
// type and the scope the resolver gives.
// The hash is 32-bit FNV-1a of typeName, a zero byte and scope.
func connectionHash(typeName, scope string) [4]byte {
	const offset, prime = 2166136261, 16777619
	h := uint32(offset)
	for i := 0; i < len(typeName); i++ {
		h = (h ^ uint32(typeName[i])) * prime
	}
	h *= prime // the zero byte
	for i := 0; i < len(scope); i++ {
		h = (h ^ uint32(scope[i])) * prime
	}
	return [4]byte{byte(h >> 24), byte(h >> 16), byte(h >> 8), byte(h)}
}

// cursorWriter encodes the cursors of one page into one buffer, so a page
// of n edges costs one allocation for all its cursors.
type cursorWriter struct {
	hash   [4]byte
	buf    []byte
	raw    []byte
	rawBuf [64]byte
}

func (w *cursorWriter) init(hash [4]byte, n, keyLen int) {
	w.hash = hash
	w.buf = make([]byte, 0, n*cursorEncoding.EncodedLen(cursorHeader+keyLen))
	w.raw = w.rawBuf[:0]
}

// add encodes one cursor for key and returns it as a string sharing the
// page's buffer. The buffer never grows past its first capacity when
// keyLen was right; when it must grow, earlier strings keep the old one.
func (w *cursorWriter) add(key []byte) string {
	w.raw = append(append(append(w.raw[:0], cursorVersion), w.hash[:]...), key...)
	start := len(w.buf)
	if need := cursorEncoding.EncodedLen(len(w.raw)); cap(w.buf)-start < need {
		w.buf = make([]byte, 0, max(2*cap(w.buf), need))
		start = 0
	}
	w.buf = cursorEncoding.AppendEncode(w.buf, w.raw)
	b := w.buf[start:]
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// decodeCursor returns the key of a cursor issued for the connection
// with hash, or false.
func decodeCursor(c string, hash [4]byte) ([]byte, bool) {
	if len(c) > cursorEncoding.EncodedLen(cursorHeader+maxKeyLen) {
		return nil, false
	}
	// Strict, and with the length of what add writes (no line breaks),
	// so that a cursor is read only as it was written.
	raw, err := cursorDecoding.DecodeString(c)
	if err != nil || cursorEncoding.EncodedLen(len(raw)) != len(c) || len(raw) < cursorHeader || raw[0] != cursorVersion || [4]byte(raw[1:5]) != hash {
		return nil, false
	}
	return raw[cursorHeader:], true
}

// appendOffset is the key of a position in a slice.
func appendOffset(buf []byte, i int) []byte { return strconv.AppendInt(buf, int64(i), 10) }

// parseOffset reads a key appendOffset writes: decimal digits without a
// sign or a leading zero, within int. A position has one cursor.
func parseOffset(key []byte) (int, bool) {
	if len(key) == 0 || len(key) > 1 && key[0] == '0' {
		return 0, false
	}
	n := 0
	for _, c := range key {
		if c < '0' || c > '9' || n > (math.MaxInt-int(c-'0'))/10 {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}
