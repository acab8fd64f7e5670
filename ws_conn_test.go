package graft_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/schema"
)

// rawWS is a graphql-transport-ws client on a bare TCP socket, for tests
// that control how the bytes of frames reach the server.
type rawWS struct {
	t  *testing.T
	c  net.Conn
	br *bufio.Reader
}

func dialRawWS(t *testing.T, addr string) *rawWS {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	_ = c.SetDeadline(time.Now().Add(20 * time.Second))
	req := "GET /graphql HTTP/1.1\r\nHost: " + addr + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" +
		"Sec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n"
	if _, err := c.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	w := &rawWS{t: t, c: c, br: bufio.NewReader(c)}
	resp, err := http.ReadResponse(w.br, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("upgrade: %v %v", resp, err)
	}
	return w
}

// write sends b in pieces of size bytes, one write each.
func (w *rawWS) write(b []byte, size int) {
	w.t.Helper()
	for len(b) > 0 {
		n := min(size, len(b))
		if _, err := w.c.Write(b[:n]); err != nil {
			w.t.Fatal(err)
		}
		b = b[n:]
	}
}

// frame reads one server frame (unmasked, payload under 126 bytes).
func (w *rawWS) frame() (opcode byte, payload string) {
	w.t.Helper()
	var h [2]byte
	if _, err := io.ReadFull(w.br, h[:]); err != nil {
		w.t.Fatal(err)
	}
	p := make([]byte, h[1]&0x7f)
	if _, err := io.ReadFull(w.br, p); err != nil {
		w.t.Fatal(err)
	}
	return h[0] & 0x0f, string(p)
}

func (w *rawWS) expect(opcode byte, payload string) {
	w.t.Helper()
	if op, p := w.frame(); op != opcode || p != payload {
		w.t.Fatalf("got frame %#x %q, want %#x %q", op, p, opcode, payload)
	}
}

// wsControl is a masked client control frame (zero mask).
func wsControl(opcode byte, payload string) []byte {
	return append([]byte{0x80 | opcode, 0x80 | byte(len(payload)), 0, 0, 0, 0}, payload...)
}

func TestWebSocketReaderTakesFramesInAnyPieces(t *testing.T) {
	srv, _ := chatServer(t, graft.Config{})
	addr := strings.TrimPrefix(srv.URL, "http://")
	base := runtime.NumGoroutine()
	w := dialRawWS(t, addr)

	// A message one byte per write: the reader waits for the rest of a
	// frame it has begun.
	w.write(wsRawFrame(`{"type":"connection_init"}`), 1)
	w.expect(0x1, `{"type":"connection_ack"}`)

	// Three messages and a control frame in one write: each is handled,
	// with none left waiting for more input.
	var b []byte
	b = append(b, wsRawFrame(`{"type":"ping"}`)...)
	b = append(b, wsControl(0x9, "hi")...)
	b = append(b, wsRawFrame(`{"id":"1","type":"subscribe","payload":{"query":"{ __typename }"}}`)...)
	b = append(b, wsRawFrame(`{"type":"ping"}`)...)
	w.write(b, len(b))
	w.expect(0x1, `{"type":"pong"}`)
	w.expect(0xa, "hi")
	// The operation runs on a goroutine of its own, so its messages and
	// the second pong come in either order.
	got := map[string]bool{}
	for range 3 {
		_, p := w.frame()
		got[p] = true
	}
	for _, want := range []string{`{"type":"pong"}`, `{"id":"1","type":"next","payload":{"data":{"__typename":"Query"}}}`, `{"id":"1","type":"complete"}`} {
		if !got[want] {
			t.Errorf("missing %s in %v", want, got)
		}
	}

	// A frame split across writes at every byte boundary of its header.
	msg := wsRawFrame(`{"type":"ping"}`)
	w.write(msg[:1], 1)
	w.write(msg[1:7], 3)
	w.write(msg[7:], len(msg))
	w.expect(0x1, `{"type":"pong"}`)

	// The client's close: the server answers it and lets go of the
	// connection.
	w.write(wsControl(0x8, "\x03\xe8"), 8)
	w.expect(0x8, "\x03\xe8")
	_ = w.c.Close()
	waitGoroutines(t, base)
}

func TestWebSocketClientClosingWhileIdle(t *testing.T) {
	srv, _, ps := chatServerPS(t, graft.Config{})
	addr := strings.TrimPrefix(srv.URL, "http://")
	base := runtime.NumGoroutine()
	w := dialRawWS(t, addr)
	w.write(wsRawFrame(`{"type":"connection_init"}`), 64)
	w.expect(0x1, `{"type":"connection_ack"}`)
	w.write(wsRawFrame(`{"id":"1","type":"subscribe","payload":{"query":"subscription { messageAdded(room: \"idle\") { id } }"}}`), 1)
	waitSubscribers(t, ps, "chat:idle", 1)
	// The socket ends with no close frame: the waiting reader sees it.
	_ = w.c.Close()
	waitSubscribers(t, ps, "chat:idle", 0)
	waitGoroutines(t, base)
}

func TestWebSocketOverTLS(t *testing.T) {
	r, _ := chatRouter(t, graft.Config{})
	srv := httptest.NewTLSServer(r)
	defer srv.Close()
	w := dialWSWith(t, "wss"+strings.TrimPrefix(srv.URL, "https")+"/graphql",
		&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}, HTTPClient: srv.Client()})
	w.init()
	w.send(`{"id":"1","type":"subscribe","payload":{"query":"subscription { countdown(from: 1) }"}}`)
	w.send(`{"type":"ping"}`)
	got := map[string]bool{}
	for range 4 {
		got[w.read()] = true
	}
	for _, want := range []string{`{"type":"pong"}`, `{"id":"1","type":"next","payload":{"data":{"countdown":1}}}`,
		`{"id":"1","type":"next","payload":{"data":{"countdown":0}}}`, `{"id":"1","type":"complete"}`} {
		if !got[want] {
			t.Errorf("missing %s in %v", want, got)
		}
	}
	r.CloseSubscriptions()
	w.expectClose(websocket.StatusGoingAway, "Server shutting down")
}

func TestWebSocketOperationsSeeTheUpgradeHeaders(t *testing.T) {
	b := schema.New()
	schema.Query(b, "header", func(ctx context.Context, a struct{ Name string }) (string, error) {
		return graft.RequestInfoFrom(ctx).Header(a.Name), nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	defer srv.Close()
	w := dialWSWith(t, "ws"+strings.TrimPrefix(srv.URL, "http")+"/graphql", &websocket.DialOptions{
		Subprotocols: []string{"graphql-transport-ws"},
		HTTPHeader:   http.Header{"Authorization": {"Bearer a:b"}, "X-Many": {"first", "second"}, "X-Empty": {""}},
	})
	w.init()
	i := 0
	for name, want := range map[string]string{
		"Authorization": "Bearer a:b", "authorization": "Bearer a:b", "x-many": "first", "X-Empty": "",
		"Sec-WebSocket-Key": "", "X-Missing": "", "Upgrade": "", "Sec-WebSocket-Protocol": "",
	} {
		i++
		id := strconv.Itoa(i)
		w.send(`{"id":"` + id + `","type":"subscribe","payload":{"query":"query($n: String!) { header(name: $n) }","variables":{"n":"` + name + `"}}}`)
		w.expect(`{"id":"` + id + `","type":"next","payload":{"data":{"header":"` + want + `"}}}`)
		w.expect(`{"id":"` + id + `","type":"complete"}`)
	}
}

// wsFrameOf is a masked client frame (zero mask) with the given first
// byte (FIN, opcode) and payload shorter than 126 bytes.
func wsFrameOf(b0 byte, payload string) []byte {
	return append([]byte{b0, 0x80 | byte(len(payload)), 0, 0, 0, 0}, payload...)
}

// A client that breaks the WebSocket protocol gets the close code RFC
// 6455 names, and the connection ends: a protocol error 1002, a text
// message that is not UTF-8 1007, a message over the read limit
// (Config.MaxBodyBytes) 1009; a binary message is not a
// graphql-transport-ws message (4400). A ping between the fragments of a
// message is answered, and the message is read whole.
func TestWebSocketProtocolViolationsClose(t *testing.T) {
	srv, _ := chatServer(t, graft.Config{MaxBodyBytes: 200})
	addr := strings.TrimPrefix(srv.URL, "http://")
	closeFrame := func(code int, reason string) string {
		return string([]byte{byte(code >> 8), byte(code)}) + reason
	}
	unmasked := append([]byte{0x81, 2}, "{}"...)
	tests := []struct {
		name   string
		frames [][]byte
		want   string
	}{
		{"unmasked frame", [][]byte{unmasked}, closeFrame(1002, "frames from client to server must be masked")},
		{"reserved bits", [][]byte{wsFrameOf(0xc1, "{}")}, closeFrame(1002, "non-zero rsv bits with no extension negotiated")},
		{"continuation with no message", [][]byte{wsFrameOf(0x80, "{}")}, closeFrame(1002, "unexpected continuation data frame")},
		{"fragmented ping", [][]byte{wsFrameOf(0x09, "x")}, closeFrame(1002, "control frame is not final")},
		{"invalid UTF-8", [][]byte{wsFrameOf(0x81, "\xff")}, closeFrame(1007, "Invalid UTF-8 in a text message")},
		{"over the read limit", [][]byte{wsFrameOf(0x01, strings.Repeat(" ", 120)), wsFrameOf(0x80, strings.Repeat(" ", 120))}, closeFrame(1009, "Message too big")},
		{"binary message", [][]byte{wsFrameOf(0x82, `{"type":"connection_init"}`)}, closeFrame(4400, "Invalid message received")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := dialRawWS(t, addr)
			w.write(bytes.Join(tt.frames, nil), 1<<10)
			w.expect(0x8, tt.want)
		})
	}
	t.Run("ping inside a fragmented message", func(t *testing.T) {
		w := dialRawWS(t, addr)
		var b []byte
		b = append(b, wsFrameOf(0x01, `{"type":"conn`)...)
		b = append(b, wsControl(0x9, "hi")...)
		b = append(b, wsFrameOf(0x80, `ection_init"}`)...)
		w.write(b, 3)
		w.expect(0xa, "hi")
		w.expect(0x1, `{"type":"connection_ack"}`)
	})
}

// An upgrade the transport cannot serve is refused before it is taken
// over, with a GraphQL error: an unsupported WebSocket version (426 with
// the version served), a missing or malformed key (400), an origin that is
// not allowed (403 FORBIDDEN).
func TestWebSocketHandshakeRefusals(t *testing.T) {
	srv, _ := chatServer(t, graft.Config{Logger: quietLogger})
	tests := []struct {
		name, version, key, origin string
		status                     int
		code                       string
	}{
		{"version 8", "8", "dGhlIHNhbXBsZSBub25jZQ==", "", http.StatusUpgradeRequired, "BAD_REQUEST"},
		{"no key", "13", "", "", http.StatusBadRequest, "BAD_REQUEST"},
		{"short key", "13", "c2hvcnQ=", "", http.StatusBadRequest, "BAD_REQUEST"},
		{"another origin", "13", "dGhlIHNhbXBsZSBub25jZQ==", "https://evil.example", http.StatusForbidden, "FORBIDDEN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+"/graphql", nil)
			req.Header.Set("Connection", "Upgrade")
			req.Header.Set("Upgrade", "websocket")
			req.Header.Set("Sec-WebSocket-Version", tt.version)
			req.Header.Set("Sec-WebSocket-Protocol", "graphql-transport-ws")
			if tt.key != "" {
				req.Header.Set("Sec-WebSocket-Key", tt.key)
			}
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body struct {
				Errors []struct{ Extensions struct{ Code string } }
			}
			_ = json.NewDecoder(resp.Body).Decode(&body)
			if resp.StatusCode != tt.status || len(body.Errors) != 1 || body.Errors[0].Extensions.Code != tt.code {
				t.Fatalf("%d %+v, want %d %s", resp.StatusCode, body, tt.status, tt.code)
			}
			if tt.status == http.StatusUpgradeRequired && resp.Header.Get("Sec-WebSocket-Version") != "13" {
				t.Errorf("Sec-WebSocket-Version %q, want 13", resp.Header.Get("Sec-WebSocket-Version"))
			}
		})
	}
}
