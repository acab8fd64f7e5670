package ws

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gobwas/ws"
)

// clientFrame is a client frame (masked, as clients must) holding p.
func clientFrame(op ws.OpCode, fin bool, p string) []byte {
	h := ws.Header{Fin: fin, OpCode: op, Length: int64(len(p)), Masked: true, Mask: [4]byte{1, 2, 3, 4}}
	var b bytes.Buffer
	_ = ws.WriteHeader(&b, h)
	payload := []byte(p)
	ws.Cipher(payload, h.Mask, 0)
	b.Write(payload)
	return b.Bytes()
}

// fakeConn reads in from its client and keeps what is written to it.
type fakeConn struct {
	net.Conn
	in  io.Reader
	out bytes.Buffer
}

func (f *fakeConn) Read(p []byte) (int, error)       { return f.in.Read(p) }
func (f *fakeConn) Write(p []byte) (int, error)      { return f.out.Write(p) }
func (f *fakeConn) SetWriteDeadline(time.Time) error { return nil }
func (f *fakeConn) Close() error                     { return nil }
func (f *fakeConn) RemoteAddr() net.Addr             { return &net.TCPAddr{} }
func (f *fakeConn) SetReadDeadline(time.Time) error  { return nil }
func (f *fakeConn) SetDeadline(time.Time) error      { return nil }
func (f *fakeConn) LocalAddr() net.Addr              { return &net.TCPAddr{} }

// testConn is a connection whose client sent frames, in pieces of
// piece bytes (all at once when 0).
func testConn(piece int, frames ...[]byte) (*wsConn, *fakeConn) {
	in := io.Reader(bytes.NewReader(bytes.Join(frames, nil)))
	if piece > 0 {
		in = &pieces{r: in, n: piece}
	}
	fc := &fakeConn{in: in}
	return &wsConn{s: New(Config{WriteTimeout: time.Minute}, nil, nil), conn: fc}, fc
}

// pieces reads at most n bytes at a time.
type pieces struct {
	r io.Reader
	n int
}

func (p *pieces) Read(b []byte) (int, error) { return p.r.Read(b[:min(len(b), p.n)]) }

// serverFrames parses what the server wrote.
func serverFrames(t *testing.T, b []byte) []string {
	t.Helper()
	var out []string
	r := bytes.NewReader(b)
	for r.Len() > 0 {
		h, err := ws.ReadHeader(r)
		if err != nil || h.Masked || !h.Fin {
			t.Fatalf("server frame %+v %v", h, err)
		}
		p := make([]byte, h.Length)
		_, _ = io.ReadFull(r, p)
		out = append(out, map[ws.OpCode]string{ws.OpText: "text", ws.OpPong: "pong", ws.OpClose: "close"}[h.OpCode]+" "+string(p))
	}
	return out
}

func TestReaderMessages(t *testing.T) {
	long := strings.Repeat("é", 3000) // larger than the read buffer
	for _, piece := range []int{0, 1, 7} {
		c, fc := testConn(piece,
			clientFrame(ws.OpText, true, `{"type":"ping"}`),
			// A fragmented message with a ping between its fragments.
			clientFrame(ws.OpText, false, "ab"),
			clientFrame(ws.OpPing, true, "p"),
			clientFrame(ws.OpContinuation, false, ""),
			clientFrame(ws.OpContinuation, true, "cd"),
			clientFrame(ws.OpText, true, long),
			clientFrame(ws.OpText, true, ""),
			clientFrame(ws.OpClose, true, "\x03\xe8bye"),
		)
		rd := getReader(c)
		for _, want := range []string{`{"type":"ping"}`, "abcd", long, ""} {
			op, p, err := rd.next(1 << 20)
			if err != nil || op != ws.OpText || string(p) != want {
				t.Fatalf("pieces of %d: read %v %.40q %v, want %.40q", piece, op, p, err, want)
			}
		}
		if _, _, err := rd.next(1 << 20); err != errPeerClosed {
			t.Fatalf("pieces of %d: at the close frame %v", piece, err)
		}
		rd.put()
		// The ping is answered with its payload, the close with the
		// client's code.
		got := serverFrames(t, fc.out.Bytes())
		if len(got) != 2 || got[0] != "pong p" || got[1] != "close \x03\xe8" {
			t.Fatalf("pieces of %d: server wrote %q", piece, got)
		}
	}
}

func TestReaderProtocolErrors(t *testing.T) {
	unmasked := clientFrame(ws.OpText, true, "{}")
	unmasked[1] &^= 0x80
	unmasked = append(unmasked[:2], []byte("{}")...)
	rsv := clientFrame(ws.OpText, true, "{}")
	rsv[0] |= 0x40
	bigControl := clientFrame(ws.OpPing, true, strings.Repeat("x", 126))
	tooLong := make([]byte, 14) // masked, 64-bit length
	tooLong[0], tooLong[1] = 0x81, 0xff
	binary.BigEndian.PutUint64(tooLong[2:], 1<<63)
	tests := []struct {
		name   string
		frames [][]byte
		code   ws.StatusCode
	}{
		{"unmasked", [][]byte{unmasked}, ws.StatusProtocolError},
		{"reserved bits", [][]byte{rsv}, ws.StatusProtocolError},
		{"reserved opcode", [][]byte{clientFrame(0x3, true, "")}, ws.StatusProtocolError},
		{"continuation first", [][]byte{clientFrame(ws.OpContinuation, true, "x")}, ws.StatusProtocolError},
		{"new message inside a fragmented one", [][]byte{clientFrame(ws.OpText, false, "x"), clientFrame(ws.OpText, true, "y")}, ws.StatusProtocolError},
		{"fragmented control", [][]byte{clientFrame(ws.OpPing, false, "x")}, ws.StatusProtocolError},
		{"control over 125 bytes", [][]byte{bigControl}, ws.StatusProtocolError},
		{"length with its high bit", [][]byte{tooLong}, ws.StatusProtocolError},
		{"close with one byte", [][]byte{clientFrame(ws.OpClose, true, "\x03")}, ws.StatusProtocolError},
		{"close with a reserved code", [][]byte{clientFrame(ws.OpClose, true, "\x03\xed")}, ws.StatusProtocolError},
		{"invalid UTF-8", [][]byte{clientFrame(ws.OpText, true, "\xff{}")}, ws.StatusInvalidFramePayloadData},
		{"invalid UTF-8 across fragments", [][]byte{clientFrame(ws.OpText, false, "\xc3"), clientFrame(ws.OpContinuation, true, "(")}, ws.StatusInvalidFramePayloadData},
		{"over the limit", [][]byte{clientFrame(ws.OpText, true, strings.Repeat("x", 101))}, ws.StatusMessageTooBig},
		{"over the limit in fragments", [][]byte{clientFrame(ws.OpText, false, strings.Repeat("x", 60)), clientFrame(ws.OpContinuation, true, strings.Repeat("x", 41))}, ws.StatusMessageTooBig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := testConn(0, tt.frames...)
			rd := getReader(c)
			defer rd.put()
			_, _, err := rd.next(100)
			var ce *closeErr
			if !errors.As(err, &ce) || ce.code != tt.code {
				t.Fatalf("got %v, want close %d", err, tt.code)
			}
		})
	}
	// A message of exactly the limit is read.
	c, _ := testConn(0, clientFrame(ws.OpText, true, strings.Repeat("x", 100)))
	rd := getReader(c)
	defer rd.put()
	if _, p, err := rd.next(100); err != nil || len(p) != 100 {
		t.Fatalf("a message of the limit: %d bytes, %v", len(p), err)
	}
}

// repeat reads b again and again.
type repeat struct {
	b []byte
	i int
}

func (r *repeat) Read(p []byte) (int, error) {
	n := copy(p, r.b[r.i:])
	r.i = (r.i + n) % len(r.b)
	return n, nil
}

// The keep-alive messages of an idle connection, the client's pong and
// its ping (answered with a pong), allocate nothing.
func TestKeepAliveMessagesAllocateNothing(t *testing.T) {
	for _, msg := range []string{`{"type":"pong"}`, `{"type":"ping"}`} {
		fc := &fakeConn{in: &repeat{b: clientFrame(ws.OpText, true, msg)}}
		c := &wsConn{s: New(Config{WriteTimeout: time.Minute, ReadLimit: 1 << 20}, nil, nil), conn: fc}
		rd := getReader(c)
		allocs := testing.AllocsPerRun(100, func() {
			if !c.handle(rd) {
				t.Fatal("the connection ended")
			}
			fc.out.Reset()
		})
		rd.put()
		if allocs != 0 {
			t.Errorf("%s: %.1f allocations per message, want 0", msg, allocs)
		}
	}
}

// TestAppendNextFrame: a next message's frame, shared by subscribers,
// is the header github.com/gobwas/ws writes for its length (each of the
// three length encodings) and the message, as sendErrors and complete
// build theirs.
func TestAppendNextFrame(t *testing.T) {
	for _, n := range []int{0, 10, 125, 200, 70000} {
		payload := bytes.Repeat([]byte("x"), n)
		got := appendNextFrame([]byte("keep"), `"1"`, payload)
		f := getFrame()
		f.b = appendMessage(f.b, `"1"`, "next", payload)
		want := append([]byte("keep"), f.bytes(ws.OpText)...)
		if !bytes.Equal(got, want) {
			t.Errorf("payload of %d bytes: frame %q…, want %q…", n, got[:min(len(got), 24)], want[:min(len(want), 24)])
		}
	}
}
