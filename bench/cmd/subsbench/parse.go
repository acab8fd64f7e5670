package main

import (
	"bytes"
	"encoding/binary"
)

// A streamParser takes a subscriber's bytes as they arrive, in pieces of
// any size, and counts its events (bench.event). It reports false once
// the stream has ended (a close frame, the last chunk) or is malformed.
type streamParser interface {
	feed(b []byte) bool
}

// maxPending bounds what a parser keeps of a message not yet whole.
const maxPending = 1 << 20

// wsParser reads server frames of graphql-transport-ws: a text frame
// holding a next message is an event; a ping is answered with its pong
// through pong.
type wsParser struct {
	b       *bench
	pong    func(frame []byte)
	pending []byte
}

func (p *wsParser) feed(in []byte) bool {
	buf := in
	if len(p.pending) > 0 {
		p.pending = append(p.pending, in...)
		buf = p.pending
	}
	for {
		if len(buf) < 2 {
			break
		}
		n, hdr := uint64(buf[1]&0x7f), 2
		switch n {
		case 126:
			if len(buf) < 4 {
				return p.keep(buf)
			}
			n, hdr = uint64(binary.BigEndian.Uint16(buf[2:4])), 4
		case 127:
			if len(buf) < 10 {
				return p.keep(buf)
			}
			n, hdr = binary.BigEndian.Uint64(buf[2:10]), 10
		}
		if n > maxPending {
			return false
		}
		if uint64(len(buf)-hdr) < n {
			break
		}
		op, msg := buf[0]&0x0f, buf[hdr:hdr+int(n)]
		switch op {
		case 1:
			if bytes.Contains(msg, []byte(`"next"`)) {
				p.b.event()
			}
		case 9:
			p.pong(append([]byte{0x8a, 0x80 | byte(len(msg)), 0, 0, 0, 0}, msg...))
		case 8:
			return false
		}
		buf = buf[hdr+int(n):]
	}
	return p.keep(buf)
}

// keep keeps rest, the start of a frame, for the next bytes.
func (p *wsParser) keep(rest []byte) bool {
	if len(rest) > maxPending {
		return false
	}
	p.pending = append(p.pending[:0], rest...)
	return true
}

// sseParser reads an event stream's body, chunked or not: a data line of
// a messageAdded payload is an event; comments (":") are keep-alives.
type sseParser struct {
	b       *bench
	chunked bool
	// In a chunked body: left is what remains of the current chunk's
	// data (then its CRLF, crlf bytes of it), head the chunk-size line
	// read so far.
	left, crlf int
	head       []byte
	line       []byte // the body's line read so far
}

func (p *sseParser) feed(in []byte) bool {
	if !p.chunked {
		return p.body(in)
	}
	for len(in) > 0 {
		switch {
		case p.left > 0:
			k := min(p.left, len(in))
			if !p.body(in[:k]) {
				return false
			}
			p.left -= k
			in = in[k:]
			if p.left == 0 {
				p.crlf = 2
			}
		case p.crlf > 0:
			p.crlf--
			in = in[1:]
		default:
			i := bytes.IndexByte(in, '\n')
			if i < 0 {
				p.head = append(p.head, in...)
				return len(p.head) <= 1024
			}
			p.head = append(p.head, in[:i]...)
			in = in[i+1:]
			size, ok := chunkSize(p.head)
			p.head = p.head[:0]
			if !ok || size == 0 {
				return false // malformed, or the last chunk: the stream ended
			}
			p.left = size
		}
	}
	return true
}

// chunkSize parses a chunk-size line (hex digits, then extensions).
func chunkSize(line []byte) (int, bool) {
	n, digits := 0, 0
	for _, c := range line {
		var d int
		switch {
		case '0' <= c && c <= '9':
			d = int(c - '0')
		case 'a' <= c && c <= 'f':
			d = int(c-'a') + 10
		case 'A' <= c && c <= 'F':
			d = int(c-'A') + 10
		default:
			return n, digits > 0
		}
		n, digits = n<<4|d, digits+1
		if n > maxPending {
			return 0, false
		}
	}
	return n, digits > 0
}

// body takes bytes of the body itself, line by line.
func (p *sseParser) body(b []byte) bool {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			p.line = append(p.line, b...)
			return len(p.line) <= maxPending
		}
		line := b[:i]
		if len(p.line) > 0 {
			p.line = append(p.line, line...)
			line = p.line
		}
		if bytes.HasPrefix(line, []byte("data:")) && bytes.Contains(line, []byte(`"messageAdded"`)) {
			p.b.event()
		}
		p.line = p.line[:0]
		b = b[i+1:]
	}
	return true
}
