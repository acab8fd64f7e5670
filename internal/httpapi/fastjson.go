package httpapi

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/graftgql/graft/internal/pqattach"
)

// decodePostFast decodes the common shape of a POST body without
// encoding/json's reflection: an object whose members are among query,
// operationName (strings or null), variables and extensions (objects or
// null). It reports ok=false for anything else (other members, escapes it
// does not handle, malformed JSON), and the caller then takes the general
// path, which also words the errors.
func decodePostFast(body, scratch []byte, texts *QueryTexts) (req Request, ok bool) {
	p := fastParser{b: body, scratch: scratch, texts: texts}
	p.ws()
	if !p.eat('{') {
		return req, false
	}
	p.ws()
	if p.eat('}') {
		return req, p.end()
	}
	for {
		p.ws()
		key, ok := p.plainKey()
		if !ok {
			return req, false
		}
		p.ws()
		if !p.eat(':') {
			return req, false
		}
		p.ws()
		switch key {
		case "query":
			if req.Query, ok = p.queryOrNull(); !ok {
				return req, false
			}
			req.QuerySlot = p.slot
		case "documentId":
			if req.DocumentID, ok = p.stringOrNull(); !ok {
				return req, false
			}
		case "operationName":
			if req.OperationName, ok = p.stringOrNull(); !ok {
				return req, false
			}
		case "variables", "extensions":
			if key == "extensions" {
				if ext, ok := p.persistedQueryOnly(); ok {
					req.PersistedQuery, req.HasPersistedQuery = ext, true
					break
				}
			}
			m, ok := p.objectOrNull()
			if !ok {
				return req, false
			}
			if key == "variables" {
				req.Variables = m
			} else {
				req.Extensions = m
			}
		default:
			return req, false
		}
		p.ws()
		if p.eat(',') {
			continue
		}
		if p.eat('}') {
			return req, p.end()
		}
		return req, false
	}
}

// interned are strings requests repeat, returned without allocating.
var interned = map[string]string{
	"persistedQuery": "persistedQuery",
	"version":        "version",
	"sha256Hash":     "sha256Hash",
	"sha512Hash":     "sha512Hash",
	"id":             "id",
	"first":          "first",
}

type fastParser struct {
	b []byte
	i int
	// scratch is where queryOrNull may unescape the query (see
	// RawRequest.Scratch).
	scratch []byte
	// texts, when not nil, keeps the text of escaped queries; slot is
	// the slot of the query's entry there, or nil.
	texts *QueryTexts
	slot  *pqattach.Slot
}

func (p *fastParser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *fastParser) eat(c byte) bool {
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *fastParser) end() bool {
	p.ws()
	return p.i == len(p.b)
}

// plainKey reads a member name without escapes.
func (p *fastParser) plainKey() (string, bool) {
	if !p.eat('"') {
		return "", false
	}
	start := p.i
	for p.i < len(p.b) {
		switch c := p.b[p.i]; {
		case c == '"':
			k := p.b[start:p.i]
			p.i++
			switch string(k) { // no allocation: compared in place
			case "query":
				return "query", true
			case "operationName":
				return "operationName", true
			case "variables":
				return "variables", true
			case "extensions":
				return "extensions", true
			}
			return "", false
		case c == '\\' || c < 0x20:
			return "", false
		}
		p.i++
	}
	return "", false
}

// stringOrNull reads null or a JSON string. Strings with escapes are
// unescaped here for \" \\ \/ \n \t \r \b \f; \u escapes and invalid
// UTF-8 fall back to the general path.
func (p *fastParser) stringOrNull() (string, bool) {
	seg, escaped, ok := p.rawStringOrNull()
	switch {
	case !ok:
		return "", false
	case seg == nil:
		return "", true
	case escaped:
		out, ok := unescape(make([]byte, 0, len(seg)), seg)
		if !ok {
			return "", false
		}
		return string(out), true
	}
	if s, ok := interned[string(seg)]; ok { // no allocation
		return s, true
	}
	return string(seg), true
}

// queryOrNull reads the query member as stringOrNull does, without
// copying: the string aliases the body when it has no escapes; else it is
// the text p.texts kept for the same escaped form, or it is unescaped
// into p.scratch when it fits (copied otherwise) and kept in p.texts. See
// Request.Query.
func (p *fastParser) queryOrNull() (string, bool) {
	p.slot = nil
	if bytes.HasPrefix(p.b[p.i:], []byte("null")) {
		p.i += 4
		return "", true
	}
	seg, escaped, ok := p.rawString()
	switch {
	case !ok:
		return "", false
	case len(seg) == 0:
		return "", true
	case !escaped:
		if hasControl(seg) || !utf8.Valid(seg) {
			return "", false
		}
		return unsafe.String(&seg[0], len(seg)), true
	}
	if p.texts != nil {
		if q, slot, ok := p.texts.lookup(seg); ok {
			p.slot = slot
			return q, true // checked when it was kept
		}
	}
	if hasControl(seg) {
		return "", false
	}
	var out []byte
	if cap(p.scratch) >= len(seg) {
		out, ok = unescape(p.scratch[:0], seg)
		if ok && len(out) > 0 {
			p.scratch = nil // used: a second query member must not overwrite it
		}
	} else {
		out, ok = unescape(make([]byte, 0, len(seg)), seg)
	}
	if !ok || len(out) == 0 {
		return "", ok
	}
	q := unsafe.String(&out[0], len(out))
	if p.texts != nil {
		q, p.slot = p.texts.add(seg, q)
	}
	return q, true
}

// rawStringOrNull reads null (seg nil) or a JSON string, giving the bytes
// between its quotes as they are in the body (seg empty, not nil, for "")
// and whether they hold escapes. Control characters and, in a string
// without escapes, invalid UTF-8 make ok false.
func (p *fastParser) rawStringOrNull() (seg []byte, escaped, ok bool) {
	if bytes.HasPrefix(p.b[p.i:], []byte("null")) {
		p.i += 4
		return nil, false, true
	}
	start := p.i
	seg, escaped, ok = p.rawString()
	if !ok || hasControl(seg) || !escaped && !utf8.Valid(seg) {
		p.i = start
		return nil, false, false
	}
	return seg, escaped, true
}

// rawString reads a JSON string, giving the bytes between its quotes as
// they are in the body (not nil) and whether they hold escapes, unchecked.
func (p *fastParser) rawString() (seg []byte, escaped, ok bool) {
	if !p.eat('"') {
		return nil, false, false
	}
	rest := p.b[p.i:]
	end := bytes.IndexByte(rest, '"')
	if end < 0 {
		return nil, false, false
	}
	if bytes.IndexByte(rest[:end], '\\') >= 0 {
		// The quote found may be escaped: it ends the string when an
		// even number of backslashes precede it.
		escaped = true
		for {
			n := 0
			for n < end && rest[end-1-n] == '\\' {
				n++
			}
			if n%2 == 0 {
				break
			}
			next := bytes.IndexByte(rest[end+1:], '"')
			if next < 0 {
				return nil, false, false
			}
			end += 1 + next
		}
	}
	p.i += end + 1
	return rest[:end:end], escaped, true
}

// hasControl reports whether b holds a byte below 0x20, eight bytes at a
// time.
func hasControl(b []byte) bool {
	const highs, limit = 0x8080808080808080, 0x20 * 0x0101010101010101
	for len(b) >= 8 {
		x := binary.LittleEndian.Uint64(b)
		if (x-limit)&^x&highs != 0 {
			return true
		}
		b = b[8:]
	}
	for _, c := range b {
		if c < 0x20 {
			return true
		}
	}
	return false
}

// unescape appends seg, the text of a JSON string with escapes, to dst
// unescaped. \u escapes, and a result that is not valid UTF-8, make ok
// false (the general path handles them).
func unescape(dst, seg []byte) ([]byte, bool) {
	for {
		bs := bytes.IndexByte(seg, '\\')
		if bs < 0 {
			dst = append(dst, seg...)
			return dst, utf8.Valid(dst)
		}
		if bs+1 >= len(seg) {
			return nil, false
		}
		dst = append(dst, seg[:bs]...)
		var r byte
		switch seg[bs+1] {
		case '"', '\\', '/':
			r = seg[bs+1]
		case 'n':
			r = '\n'
		case 't':
			r = '\t'
		case 'r':
			r = '\r'
		case 'b':
			r = '\b'
		case 'f':
			r = '\f'
		default:
			return nil, false
		}
		dst = append(dst, r)
		seg = seg[bs+2:]
	}
}

// persistedQueryOnly decodes extensions of exactly the shape
// {"persistedQuery":{"version":<int>,"sha256Hash":"<hash>"}} (with
// sha512Hash beside or instead of sha256Hash, members in any order, hashes
// not empty) into a PersistedQueryExtension. For anything else (escapes in
// a member name or a hash, a version that is not a plain integer, other
// members) it leaves the position where it was and reports false, and the
// caller decodes the extensions as any object. The hashes share the body's
// memory, as the query does (see Request.Query): this path allocates
// nothing.
func (p *fastParser) persistedQueryOnly() (PersistedQueryExtension, bool) {
	if ext, ok := p.apolloPersistedQuery(); ok {
		return ext, true
	}
	var ext PersistedQueryExtension
	start := p.i
	fail := func() (PersistedQueryExtension, bool) {
		p.i = start
		return PersistedQueryExtension{}, false
	}
	if !p.eat('{') {
		return fail()
	}
	p.ws()
	if k, ok := p.rawKey(); !ok || string(k) != "persistedQuery" {
		return fail()
	}
	p.ws()
	if !p.eat(':') {
		return fail()
	}
	p.ws()
	if !p.eat('{') {
		return fail()
	}
	var seen [3]bool
	for {
		p.ws()
		k, ok := p.rawKey()
		if !ok {
			return fail()
		}
		p.ws()
		if !p.eat(':') {
			return fail()
		}
		p.ws()
		switch string(k) { // compared in place
		case "version":
			n, ok := p.plainInt()
			if !ok || seen[0] {
				return fail()
			}
			ext.Version, seen[0] = n, true
		case "sha256Hash", "sha512Hash":
			h, ok := p.plainString()
			if !ok || h == "" {
				return fail()
			}
			if k[3] == '2' { // sha256Hash
				if seen[1] {
					return fail()
				}
				ext.SHA256Hash, seen[1] = h, true
			} else {
				if seen[2] {
					return fail()
				}
				ext.SHA512Hash, seen[2] = h, true
			}
		default:
			return fail()
		}
		p.ws()
		if p.eat(',') {
			continue
		}
		if p.eat('}') {
			break
		}
		return fail()
	}
	p.ws()
	if !p.eat('}') || !seen[0] || (!seen[1] && !seen[2]) {
		return fail()
	}
	return ext, true
}

// apolloPrefix is how Apollo's clients, and most others, begin a
// hash-only persisted query's extensions.
const apolloPrefix = `{"persistedQuery":{"version":1,"sha256Hash":"`

// apolloPersistedQuery reads extensions written exactly as Apollo's
// clients write them, {"persistedQuery":{"version":1,"sha256Hash":"<hash>"}}
// without spaces and with a hash of 64 lowercase hex digits, by byte
// comparisons; anything else reports false and leaves the position
// unchanged.
func (p *fastParser) apolloPersistedQuery() (PersistedQueryExtension, bool) {
	const hashLen = 64
	rest := p.b[p.i:]
	if len(rest) < len(apolloPrefix)+hashLen+3 || string(rest[:len(apolloPrefix)]) != apolloPrefix {
		return PersistedQueryExtension{}, false
	}
	rest = rest[len(apolloPrefix):]
	if string(rest[hashLen:hashLen+3]) != `"}}` || !lowerHex(rest[:hashLen]) {
		return PersistedQueryExtension{}, false
	}
	p.i += len(apolloPrefix) + hashLen + 3
	return PersistedQueryExtension{Version: 1, SHA256Hash: unsafe.String(&rest[0], hashLen), LowerHex: true}, true
}

// lowerHex reports whether b, whose length is a multiple of 8, holds only
// the digits 0-9 and a-f, eight bytes at a time.
func lowerHex(b []byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	if len(b)%8 != 0 {
		return false
	}
	for ; len(b) > 0; b = b[8:] {
		x := binary.LittleEndian.Uint64(b)
		if x&highs != 0 {
			return false
		}
		// With every byte below 0x80, adding 0x80-lo sets a byte's high
		// bit exactly when it is at least lo, without carries.
		digit := (x + (0x80-'0')*ones) &^ (x + (0x80-'9'-1)*ones)
		af := (x + (0x80-'a')*ones) &^ (x + (0x80-'f'-1)*ones)
		if (digit|af)&highs != highs {
			return false
		}
	}
	return true
}

// rawKey reads a member name of printable ASCII without escapes and
// gives its bytes as they are in the body; anything else reports false.
func (p *fastParser) rawKey() ([]byte, bool) {
	if !p.eat('"') {
		return nil, false
	}
	end := bytes.IndexByte(p.b[p.i:], '"')
	if end < 0 {
		return nil, false
	}
	k := p.b[p.i : p.i+end]
	if !plainASCII(k) {
		return nil, false
	}
	p.i += end + 1
	return k, true
}

// plainASCII reports whether b holds only printable ASCII other than the
// backslash, eight bytes at a time.
func plainASCII(b []byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for len(b) >= 8 {
		x := binary.LittleEndian.Uint64(b)
		bs := x ^ ('\\' * ones)
		// A high bit, a byte below 0x20, or a zero byte of x^'\\'.
		if (x|(x-0x20*ones)|(bs-ones)&^bs)&highs != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c < 0x20 || c >= 0x80 || c == '\\' {
			return false
		}
	}
	return true
}

// plainString reads a JSON string of printable ASCII without escapes (a
// hash) and gives it in place, sharing the body's memory; anything else
// reports false.
func (p *fastParser) plainString() (string, bool) {
	k, ok := p.rawKey()
	if !ok || len(k) == 0 {
		return "", ok
	}
	return unsafe.String(&k[0], len(k)), true
}

// plainInt reads an integer of at most 18 digits without fraction or
// exponent; anything else (which the general path reads) reports false.
func (p *fastParser) plainInt() (int64, bool) {
	neg := p.eat('-')
	start := p.i
	var n int64
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		n = n*10 + int64(p.b[p.i]-'0')
		p.i++
	}
	digits := p.i - start
	if digits == 0 || digits > 18 || digits > 1 && p.b[start] == '0' {
		return 0, false
	}
	if p.i < len(p.b) {
		switch p.b[p.i] {
		case '.', 'e', 'E':
			return 0, false
		}
	}
	if neg {
		n = -n
	}
	return n, true
}

// maxFastDepth bounds the nesting the fast path decodes; deeper values
// take the general path.
const maxFastDepth = 64

// objectOrNull decodes null (giving nil) or a JSON object into the values
// the general path gives: map[string]any, []any, string, bool, nil, int64
// for integers that fit and float64 for other numbers.
func (p *fastParser) objectOrNull() (map[string]any, bool) {
	if bytes.HasPrefix(p.b[p.i:], []byte("null")) {
		p.i += 4
		return nil, true
	}
	if p.i >= len(p.b) || p.b[p.i] != '{' {
		return nil, false
	}
	v, ok := p.value(0)
	if !ok {
		return nil, false
	}
	return v.(map[string]any), true
}

func (p *fastParser) value(depth int) (any, bool) {
	if depth > maxFastDepth || p.i >= len(p.b) {
		return nil, false
	}
	switch c := p.b[p.i]; {
	case c == '{':
		p.i++
		m := map[string]any{}
		p.ws()
		if p.eat('}') {
			return m, true
		}
		for {
			p.ws()
			if p.i >= len(p.b) || p.b[p.i] != '"' {
				return nil, false
			}
			k, ok := p.stringOrNull()
			if !ok {
				return nil, false
			}
			p.ws()
			if !p.eat(':') {
				return nil, false
			}
			p.ws()
			v, ok := p.value(depth + 1)
			if !ok {
				return nil, false
			}
			m[k] = v
			p.ws()
			if p.eat(',') {
				continue
			}
			if p.eat('}') {
				return m, true
			}
			return nil, false
		}
	case c == '[':
		p.i++
		l := []any{}
		p.ws()
		if p.eat(']') {
			return l, true
		}
		for {
			p.ws()
			v, ok := p.value(depth + 1)
			if !ok {
				return nil, false
			}
			l = append(l, v)
			p.ws()
			if p.eat(',') {
				continue
			}
			if p.eat(']') {
				return l, true
			}
			return nil, false
		}
	case c == '"':
		return p.stringOrNull()
	case c == 't' && bytes.HasPrefix(p.b[p.i:], []byte("true")):
		p.i += 4
		return true, true
	case c == 'f' && bytes.HasPrefix(p.b[p.i:], []byte("false")):
		p.i += 5
		return false, true
	case c == 'n' && bytes.HasPrefix(p.b[p.i:], []byte("null")):
		p.i += 4
		return nil, true
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return nil, false
}

// number reads a JSON number: an int64 when it is an integer that fits,
// else a float64 when it has a fraction or exponent, else (an integer
// beyond int64, or out of float64's range) a json.Number, as the general
// path gives. A large integer stays exact, so it can still be an ID.
func (p *fastParser) number() (any, bool) {
	start := p.i
	p.eat('-')
	switch {
	case p.eat('0'):
	case p.i < len(p.b) && p.b[p.i] >= '1' && p.b[p.i] <= '9':
		p.digits()
	default:
		return nil, false
	}
	if p.eat('.') {
		if !p.digits() {
			return nil, false
		}
	}
	if p.eat('e') || p.eat('E') {
		if !p.eat('+') {
			p.eat('-')
		}
		if !p.digits() {
			return nil, false
		}
	}
	text := string(p.b[start:p.i])
	if n, err := strconv.ParseInt(text, 10, 64); err == nil {
		return n, true
	}
	if f, err := strconv.ParseFloat(text, 64); err == nil && !isIntegerText(text) {
		return f, true
	}
	return json.Number(text), true
}

func (p *fastParser) digits() bool {
	start := p.i
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		p.i++
	}
	return p.i > start
}

// isIntegerText reports whether a JSON number's text has neither fraction
// nor exponent.
func isIntegerText(s string) bool {
	return !strings.ContainsAny(s, ".eE")
}
