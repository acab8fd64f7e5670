package httpapi

import (
	"bytes"
	"unicode/utf8"
)

// decodePostFast decodes the common shape of a POST body without
// encoding/json's reflection: an object whose members are among query,
// operationName (strings or null), variables and extensions (objects or
// null). It reports ok=false for anything else (other members, escapes it
// does not handle, malformed JSON), and the caller then takes the general
// path, which also words the errors.
func decodePostFast(body []byte) (req Request, ok bool) {
	p := fastParser{b: body}
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
			if req.Query, ok = p.stringOrNull(); !ok {
				return req, false
			}
		case "operationName":
			if req.OperationName, ok = p.stringOrNull(); !ok {
				return req, false
			}
		case "variables", "extensions":
			raw, ok := p.objectOrNull()
			if !ok {
				return req, false
			}
			if raw != nil {
				dst := &req.Variables
				if key == "extensions" {
					dst = &req.Extensions
				}
				if e := objectParam(key, raw, dst); e != nil {
					return req, false
				}
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

type fastParser struct {
	b []byte
	i int
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
	if bytes.HasPrefix(p.b[p.i:], []byte("null")) {
		p.i += 4
		return "", true
	}
	if !p.eat('"') {
		return "", false
	}
	start := p.i
	var out []byte
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			seg := p.b[start:p.i]
			p.i++
			if out == nil {
				if !utf8.Valid(seg) {
					return "", false
				}
				return string(seg), true
			}
			out = append(out, seg...)
			if !utf8.Valid(out) {
				return "", false
			}
			return string(out), true
		case c == '\\':
			if p.i+1 >= len(p.b) {
				return "", false
			}
			if out == nil {
				out = make([]byte, 0, len(p.b)-start)
			}
			out = append(out, p.b[start:p.i]...)
			var r byte
			switch p.b[p.i+1] {
			case '"', '\\', '/':
				r = p.b[p.i+1]
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
				return "", false
			}
			out = append(out, r)
			p.i += 2
			start = p.i
		case c < 0x20:
			return "", false
		default:
			p.i++
		}
	}
	return "", false
}

// objectOrNull returns the raw bytes of a JSON object (nil for null),
// finding its end by counting brackets outside strings. The object itself
// is decoded (and checked) by the caller.
func (p *fastParser) objectOrNull() ([]byte, bool) {
	if bytes.HasPrefix(p.b[p.i:], []byte("null")) {
		p.i += 4
		return nil, true
	}
	if p.i >= len(p.b) || p.b[p.i] != '{' {
		return nil, false
	}
	start, depth := p.i, 0
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				p.i++
				return p.b[start:p.i], true
			}
		case '"':
			p.i++
			for p.i < len(p.b) && p.b[p.i] != '"' {
				if p.b[p.i] == '\\' {
					p.i++
				}
				p.i++
			}
		}
		p.i++
	}
	return nil, false
}
