package ws

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gobwas/ws"
)

// FuzzReader feeds arbitrary bytes, in pieces of arbitrary size, to a
// connection's frame reader, with an arbitrary message limit. Whatever
// the bytes, the reader returns whole text or binary messages within the
// limit (a text one UTF-8), then ends with the end of the input or a
// protocol close code RFC 6455 names for it; it never gathers more than
// the bytes that arrived, and what it writes to the client is well-formed
// server frames: pongs and at most one close, last.
func FuzzReader(f *testing.F) {
	f.Add(clientFrame(ws.OpText, true, `{"type":"ping"}`), uint8(0), uint16(1000))
	f.Add(bytes.Join([][]byte{
		clientFrame(ws.OpText, false, "ab"),
		clientFrame(ws.OpPing, true, "p"),
		clientFrame(ws.OpContinuation, true, "cd"),
		clientFrame(ws.OpBinary, true, "\x00\xff"),
		clientFrame(ws.OpClose, true, "\x03\xe8bye"),
	}, nil), uint8(3), uint16(0))
	f.Add(clientFrame(ws.OpText, true, strings.Repeat("é", 2000)), uint8(7), uint16(100))
	f.Add(clientFrame(ws.OpClose, true, "\x03"), uint8(1), uint16(10))
	f.Add(clientFrame(ws.OpClose, true, ""), uint8(0), uint16(10))
	f.Add([]byte{0x81, 0xff, 0, 0, 0, 0, 0, 0x10, 0, 0, 1, 2, 3, 4}, uint8(0), uint16(0))
	f.Fuzz(func(t *testing.T, in []byte, piece uint8, limit uint16) {
		c, fc := testConn(int(piece), in)
		rd := getReader(c)
		defer rd.put()
		// Each message takes at least a header's two bytes: more calls
		// than that would be a reader that does not advance.
		var err error
		for i := 0; ; i++ {
			if i > len(in)/2+1 {
				t.Fatalf("the reader returned %d messages from %d bytes", i, len(in))
			}
			var op ws.OpCode
			var p []byte
			op, p, err = rd.next(int64(limit))
			if err != nil {
				break
			}
			if op != ws.OpText && op != ws.OpBinary {
				t.Fatalf("a message of opcode %v", op)
			}
			if op == ws.OpText && !utf8.Valid(p) {
				t.Fatalf("a text message that is not UTF-8: %q", p)
			}
			if limit > 0 && len(p) > int(limit) {
				t.Fatalf("a message of %d bytes over the limit %d", len(p), limit)
			}
			if cap(rd.msg) > len(in)+64<<10 {
				t.Fatalf("the reader holds %d bytes for an input of %d", cap(rd.msg), len(in))
			}
		}
		var ce *closeErr
		switch {
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		case errors.As(err, &ce):
			switch ce.code {
			case ws.StatusNormalClosure, ws.StatusProtocolError, ws.StatusInvalidFramePayloadData, ws.StatusMessageTooBig:
			default:
				t.Fatalf("closed with %d %q", ce.code, ce.reason)
			}
			if len(ws.NewCloseFrameBody(ce.code, ce.reason)) > ws.MaxControlFramePayloadSize {
				t.Fatalf("a close reason too long for a control frame: %q", ce.reason)
			}
		default:
			t.Fatalf("the reader ended with %v", err)
		}
		checkServerFrames(t, fc.out.Bytes())
		out := serverFrames(t, fc.out.Bytes())
		for i, fr := range out {
			kind, _, _ := strings.Cut(fr, " ")
			if kind != "pong" && !(kind == "close" && i == len(out)-1) {
				t.Fatalf("the server wrote %q", out)
			}
		}
	})
}

// checkServerFrames checks that b is well-formed server frames, as a
// client reads them (RFC 6455 5.2, 5.5): unmasked, control frames final
// and within 125 bytes.
func checkServerFrames(t *testing.T, b []byte) {
	t.Helper()
	r := bytes.NewReader(b)
	for r.Len() > 0 {
		h, err := ws.ReadHeader(r)
		if err == nil {
			err = ws.CheckHeader(h, ws.StateClientSide)
		}
		if err != nil || h.Length > int64(r.Len()) {
			t.Fatalf("the server wrote a bad frame %+v: %v", h, err)
		}
		_, _ = r.Seek(h.Length, io.SeekCurrent)
	}
}

// TestReaderCloseCodes: a close frame with a code no client may send
// (RFC 6455 7.4), 5000 and over among them, fails the connection with
// 1002; the codes registered since the RFC are answered.
func TestReaderCloseCodes(t *testing.T) {
	for _, tt := range []struct {
		payload string
		want    ws.StatusCode // 0: answered
	}{
		{"\x03\xe8", 0},                      // 1000
		{"\x03\xf4", 0},                      // 1012
		{"\x03\xf6", 0},                      // 1014
		{"\x0f\x9f", 0},                      // 3999
		{"\x13\x87", 0},                      // 4999
		{"\x13\x88", ws.StatusProtocolError}, // 5000
		{"00", ws.StatusProtocolError},       // 12336
		{"\xff\xff", ws.StatusProtocolError}, // 65535
		{"\x03\xf7", ws.StatusProtocolError}, // 1015
		{"\x03\xec", ws.StatusProtocolError}, // 1004
		{"\x03\xe8\xff", ws.StatusProtocolError},
	} {
		c, fc := testConn(0, clientFrame(ws.OpClose, true, tt.payload))
		rd := getReader(c)
		_, _, err := rd.next(0)
		rd.put()
		var ce *closeErr
		if !errors.As(err, &ce) {
			t.Fatalf("close %q: %v", tt.payload, err)
		}
		if tt.want == 0 {
			if err != errPeerClosed || !bytes.Equal(fc.out.Bytes(), append([]byte{0x88, 2}, tt.payload[:2]...)) {
				t.Errorf("close %q: %v, answered %q", tt.payload, err, fc.out.Bytes())
			}
		} else if ce.code != tt.want {
			t.Errorf("close %q: %d %q, want %d", tt.payload, ce.code, ce.reason, tt.want)
		}
	}
}
