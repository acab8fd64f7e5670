package ws

import (
	"io"
	"net"
	"sync"
	"unicode/utf8"
	"unique"

	"github.com/gobwas/ws"
)

// A connection reads and writes WebSocket frames itself, with
// github.com/gobwas/ws for the frame headers and the unmasking: the
// library keeps no state per connection, so an idle connection holds
// graft's own small struct and the socket, and no buffer. Its reader
// borrows a pooled buffer while it reads (reader), and each message is
// built in a pooled buffer, header and payload together, and written in
// one system call (frame).

// readBufferSize is the size of a reader's buffer: it holds the small
// messages clients send (subscribe, complete, ping, pong) whole. A larger
// message is gathered in a buffer of its own, grown as its bytes arrive.
const readBufferSize = 2048

// closeErr is a protocol violation of the client: the connection is
// closed with code and reason.
type closeErr struct {
	code   ws.StatusCode
	reason string
}

func (e *closeErr) Error() string { return e.reason }

// errPeerClosed: the client's close frame was read.
var errPeerClosed = &closeErr{code: ws.StatusNormalClosure, reason: "closed by the client"}

// reader reads the frames of one connection. It is taken from readers
// by the goroutine that reads, and put back while the connection waits
// for input with no goroutine.
type reader struct {
	c    *wsConn
	r, w int
	hdr  [ws.MaxHeaderSize]byte // ws.ReadHeaderBuffer's scratch
	ctl  [ws.MaxControlFramePayloadSize]byte
	msg  []byte // a message gathered across frames or too large for buf
	buf  [readBufferSize]byte
}

var readers = sync.Pool{New: func() any { return new(reader) }}

// getReader returns a reader for c.
func getReader(c *wsConn) *reader {
	rd := readers.Get().(*reader)
	rd.c = c
	return rd
}

// put returns rd to the pool; it must hold no input.
func (rd *reader) put() {
	rd.c, rd.r, rd.w = nil, 0, 0
	if cap(rd.msg) > 64<<10 {
		rd.msg = nil
	}
	rd.msg = rd.msg[:0]
	readers.Put(rd)
}

// buffered reports whether input was read and not yet handled.
func (rd *reader) buffered() bool { return rd.r < rd.w || rd.c.early != nil }

// Read reads what is buffered, else reads the socket once (the bytes
// read with the upgrade request first).
func (rd *reader) Read(p []byte) (int, error) {
	if rd.r == rd.w {
		if err := rd.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(p, rd.buf[rd.r:rd.w])
	rd.r += n
	return n, nil
}

// fill reads more input into the empty buffer.
func (rd *reader) fill() error {
	rd.r, rd.w = 0, 0
	if e := rd.c.early; e != nil {
		n := copy(rd.buf[:], *e)
		if *e = (*e)[n:]; len(*e) == 0 {
			rd.c.early = nil
		}
		rd.w = n
		return nil
	}
	n, err := rd.c.conn.Read(rd.buf[:])
	rd.w = n
	if n > 0 {
		return nil
	}
	if err == nil {
		err = io.ErrNoProgress
	}
	return err
}

// next reads the next data message, answering the control frames before
// it, and returns its opcode and payload, unmasked. The payload is valid
// until the next call. A violation of the protocol is a *closeErr; the
// client's close frame is errPeerClosed, once answered.
func (rd *reader) next(limit int64) (ws.OpCode, []byte, error) {
	var op ws.OpCode
	state := ws.StateServerSide
	rd.msg = rd.msg[:0]
	for {
		h, err := ws.ReadHeaderBuffer(rd, rd.hdr[:])
		if err != nil {
			if err == ws.ErrHeaderLengthMSB || err == ws.ErrHeaderLengthUnexpected {
				return 0, nil, &closeErr{ws.StatusProtocolError, err.Error()}
			}
			return 0, nil, err
		}
		if err := ws.CheckHeader(h, state); err != nil {
			return 0, nil, &closeErr{ws.StatusProtocolError, err.Error()}
		}
		if h.OpCode.IsControl() {
			if err := rd.control(h); err != nil {
				return 0, nil, err
			}
			continue
		}
		if op == 0 {
			op = h.OpCode
		}
		if limit > 0 && int64(len(rd.msg))+h.Length > limit {
			return 0, nil, &closeErr{ws.StatusMessageTooBig, "Message too big"}
		}
		n := int(h.Length)
		if h.Fin && len(rd.msg) == 0 && rd.w-rd.r >= n {
			// The whole message is buffered: it is read in place.
			p := rd.buf[rd.r : rd.r+n]
			rd.r += n
			ws.Cipher(p, h.Mask, 0)
			return op, p, rd.check(op, p)
		}
		// Gathered, growing as the bytes arrive rather than by the length
		// the client declares.
		start := len(rd.msg)
		for got := 0; got < n; {
			k := min(n-got, 32<<10)
			m := len(rd.msg)
			rd.msg = append(rd.msg, make([]byte, k)...)
			if _, err := io.ReadFull(rd, rd.msg[m:]); err != nil {
				return 0, nil, err
			}
			got += k
		}
		ws.Cipher(rd.msg[start:], h.Mask, 0)
		if h.Fin {
			return op, rd.msg, rd.check(op, rd.msg)
		}
		state = state.Set(ws.StateFragmented)
	}
}

// check checks that a text message is UTF-8.
func (rd *reader) check(op ws.OpCode, p []byte) error {
	if op == ws.OpText && !utf8.Valid(p) {
		return &closeErr{ws.StatusInvalidFramePayloadData, "Invalid UTF-8 in a text message"}
	}
	return nil
}

// control handles a control frame: a ping is answered with a pong of the
// same payload, a pong is ignored, a close is answered with a close of
// the same code, unless one was sent, and ends the connection.
func (rd *reader) control(h ws.Header) error {
	p := rd.ctl[:h.Length]
	if _, err := io.ReadFull(rd, p); err != nil {
		return err
	}
	ws.Cipher(p, h.Mask, 0)
	switch h.OpCode {
	case ws.OpPing:
		rd.c.writeControl(ws.OpPong, p)
	case ws.OpClose:
		if len(p) == 1 {
			return &closeErr{ws.StatusProtocolError, "Invalid close frame"}
		}
		if len(p) >= 2 {
			code, reason := ws.ParseCloseFrameDataUnsafe(p)
			if !closeCodeValid(code) {
				return &closeErr{ws.StatusProtocolError, "Invalid close code"}
			}
			if !utf8.ValidString(reason) {
				return &closeErr{ws.StatusProtocolError, "Invalid UTF-8 in a close reason"}
			}
		}
		// The close is answered with the client's code (RFC 6455 5.5.1),
		// or with none when it gave none.
		rd.c.closeWith(p[:min(len(p), 2)], false)
		return errPeerClosed
	}
	return nil
}

// closeCodeValid reports whether a client may send code in a close
// frame (RFC 6455 7.4): one the RFC defines for an endpoint to send
// (1000-1003, 1007-1011) or IANA registered since (1012-1014), or one of
// the ranges of libraries and applications (3000-4999). The others,
// 5000 and over among them, fail the connection.
func closeCodeValid(code ws.StatusCode) bool {
	return code >= 1000 && code <= 1003 || code >= 1007 && code <= 1014 || code >= 3000 && code <= 4999
}

// frameHead is the room a frame keeps for its header: the longest header
// of an unmasked frame.
const frameHead = ws.MaxHeaderSize - 4

// frame is a message being built: the room for its header, then its
// payload, written with the header in one write.
type frame struct {
	b   []byte // b[:frameHead] is the room for the header
	at  int    // where the header begins, once written
	hdr [ws.MaxHeaderSize]byte
}

var frames = sync.Pool{New: func() any { return &frame{b: make([]byte, frameHead, 512)} }}

func getFrame() *frame {
	f := frames.Get().(*frame)
	f.b = f.b[:frameHead]
	return f
}

// put returns f to the pool, unless it grew large.
func (f *frame) put() {
	if cap(f.b) <= smallAnswer+256 {
		frames.Put(f)
	}
}

// bytes writes the header of a final frame of opcode op before the
// payload and returns the frame.
func (f *frame) bytes(op ws.OpCode) []byte {
	h := ws.Header{Fin: true, OpCode: op, Length: int64(len(f.b) - frameHead)}
	f.at = frameHead - ws.HeaderSize(h)
	_ = ws.WriteHeaderBuffer(f, h, f.hdr[:])
	return f.b[f.at:]
}

// Write puts the header ws.WriteHeaderBuffer writes in its room.
func (f *frame) Write(p []byte) (int, error) {
	return copy(f.b[f.at:frameHead], p), nil
}

// buffers is a large message's header and parts, written with one
// writev (net.Buffers) without copying the parts.
func buffers(op ws.OpCode, parts ...[]byte) net.Buffers {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	f := &frame{b: make([]byte, frameHead)}
	h := ws.Header{Fin: true, OpCode: op, Length: int64(n)}
	f.at = frameHead - ws.HeaderSize(h)
	_ = ws.WriteHeaderBuffer(f, h, f.hdr[:])
	return append(net.Buffers{f.b[f.at:]}, parts...)
}

// frameKey is the key of a push subscription's framing of its events
// (transport.FramedDrainer): the frame of an event differs from one
// subscriber to the next by the subscription's id alone, so subscribers
// whose ids are equal share it. The id is interned: the key is one
// pointer, held in the interface itself, so comparing a subscriber's key
// with the kept one reads neither's memory.
type frameKey struct{ id unique.Handle[string] }

// sharedIDMax is the longest id (as JSON) whose frames are shared. A
// longer one is most likely unique to its client (graphql-ws clients make
// a UUID of each), and framing it for sharing would only cost a frame per
// subscriber: its payloads are framed in a pooled buffer instead.
const sharedIDMax = 16

// nextPrefix and nextInfix surround the id of a next message.
const (
	nextPrefix = `{"id":`
	nextInfix  = `,"type":"next","payload":`
)

// appendNextFrame appends to dst the final text frame of the next
// message of operation id (as JSON) whose payload is payload.
func appendNextFrame(dst []byte, id string, payload []byte) []byte {
	n := len(nextPrefix) + len(id) + len(nextInfix) + len(payload) + 1
	dst = appendHeader(dst, ws.OpText, n)
	dst = append(dst, nextPrefix...)
	dst = append(dst, id...)
	dst = append(dst, nextInfix...)
	dst = append(dst, payload...)
	return append(dst, '}')
}

// appendHeader appends the header of a final, unmasked frame of opcode op
// whose payload is n bytes (RFC 6455 5.2).
func appendHeader(dst []byte, op ws.OpCode, n int) []byte {
	b0 := 0x80 | byte(op)
	switch {
	case n < 126:
		return append(dst, b0, byte(n))
	case n <= 0xFFFF:
		return append(dst, b0, 126, byte(n>>8), byte(n))
	default:
		return append(dst, b0, 127, byte(uint64(n)>>56), byte(uint64(n)>>48), byte(uint64(n)>>40), byte(uint64(n)>>32),
			byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	}
}
