package ws

import (
	"net/http"

	"github.com/graftgql/graft/internal/httpapi"
)

// newWSHeader is the header of a WebSocket upgrade request, kept for the
// hooks of the connection's operations (RequestInfo.Header) as lines
// rather than as the request's map. The handshake's own headers are left
// out: what every upgrade carries costs each connection its bytes and
// tells a hook nothing.
func newWSHeader(h http.Header) httpapi.HeaderLines {
	return httpapi.NewHeaderLines(h, wsHandshakeHeader)
}

// wsHandshakeHeader reports whether the canonical header name k is one of
// the WebSocket handshake's own, which no hook needs.
func wsHandshakeHeader(k string) bool {
	switch k {
	case "Connection", "Upgrade", "Sec-Websocket-Key", "Sec-Websocket-Version", "Sec-Websocket-Extensions", "Sec-Websocket-Protocol":
		return true
	}
	return false
}
