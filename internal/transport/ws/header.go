package ws

import (
	"net/http"
	"net/textproto"
	"strings"
)

// wsHeader is the header of a WebSocket upgrade request, kept for the
// hooks of the connection's operations (RequestInfo.Header) as one string
// of "Name:value\n" lines rather than as the request's map, which costs
// several times the bytes. The handshake's own headers are left out.
type wsHeader string

func newWSHeader(h http.Header) wsHeader {
	n := 0
	for k, vs := range h {
		if !wsHandshakeHeader(k) {
			for _, v := range vs {
				n += len(k) + len(v) + 2
			}
		}
	}
	var b strings.Builder
	b.Grow(n)
	for k, vs := range h {
		if wsHandshakeHeader(k) {
			continue
		}
		for _, v := range vs {
			b.WriteString(k)
			b.WriteByte(':')
			b.WriteString(v)
			b.WriteByte('\n')
		}
	}
	return wsHeader(b.String())
}

// wsHandshakeHeader reports whether the canonical header name k is one of
// the WebSocket handshake's own, which no hook needs.
func wsHandshakeHeader(k string) bool {
	switch k {
	case "Sec-Websocket-Key", "Sec-Websocket-Version", "Sec-Websocket-Extensions":
		return true
	}
	return false
}

// get returns the first value of header name (any case), as
// http.Header.Get does. Header names hold no ':' and values no '\n'.
func (h wsHeader) get(name string) string {
	name = textproto.CanonicalMIMEHeaderKey(name)
	s := string(h)
	for len(s) > 0 {
		line, rest, _ := strings.Cut(s, "\n")
		if k, v, ok := strings.Cut(line, ":"); ok && k == name {
			return v
		}
		s = rest
	}
	return ""
}
