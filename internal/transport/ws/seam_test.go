package ws

import (
	"bufio"
	"bytes"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gobwas/ws"
)

// What the transport relies on of github.com/gobwas/ws: HTTPUpgrader
// takes the connection over from net/http, answers 101 with the
// subprotocol Protocol chose, negotiates no extension (messages are not
// compressed, as before) and hands back the bytes the client sent after
// its request (a client may send connection_init at once); and
// ws.WriteHeaderBuffer writes a header of the size ws.HeaderSize gives,
// which frame.bytes makes room for.
func TestSeamUpgrader(t *testing.T) {
	type upgraded struct {
		conn     net.Conn
		early    []byte
		protocol string
		err      error
	}
	got := make(chan upgraded, 1)
	u := New(Config{}, nil, nil).upgrader
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		conn, rw, hs, err := u.Upgrade(req, w)
		var early []byte
		if err == nil {
			b, _ := rw.Reader.Peek(rw.Reader.Buffered())
			early = bytes.Clone(b)
		}
		got <- upgraded{conn, early, hs.Protocol, err}
	}))
	defer srv.Close()
	c, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	// The request and a first frame in one write.
	msg := clientFrame(ws.OpText, true, `{"type":"connection_init"}`)
	req := "GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" +
		"Sec-WebSocket-Protocol: graphql-ws, graphql-transport-ws\r\n" +
		"Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n"
	if _, err := c.Write(append([]byte(req), msg...)); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols || resp.Header.Get("Sec-WebSocket-Protocol") != wsProtocol ||
		resp.Header.Get("Sec-WebSocket-Accept") != "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" || resp.Header.Get("Sec-WebSocket-Extensions") != "" {
		t.Fatalf("upgrade answered %d %v", resp.StatusCode, resp.Header)
	}
	a := <-got
	if a.err != nil {
		t.Fatal(a.err)
	}
	defer a.conn.Close()
	if a.protocol != wsProtocol {
		t.Fatalf("protocol %q, want %q", a.protocol, wsProtocol)
	}
	// The frame sent with the request is read after it: either still
	// buffered by net/http or on the socket.
	rest := make([]byte, len(msg)-len(a.early))
	if _, err := a.conn.Read(rest); err != nil && len(rest) > 0 {
		t.Fatal(err)
	}
	if string(append(a.early, rest...)) != string(msg) {
		t.Fatalf("bytes after the request %q, want %q", append(a.early, rest...), msg)
	}

	for _, n := range []int{0, 125, 126, 65535, 65536} {
		f := getFrame()
		f.b = append(f.b, strings.Repeat("x", n)...)
		b := f.bytes(ws.OpText)
		h, err := ws.ReadHeader(bytes.NewReader(b))
		if err != nil || h.Length != int64(n) || !h.Fin || h.OpCode != ws.OpText || h.Masked ||
			len(b) != ws.HeaderSize(h)+n {
			t.Fatalf("a frame of %d bytes reads %+v %v (%d bytes)", n, h, err, len(b))
		}
		f.put()
	}
}
