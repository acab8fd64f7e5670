package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// The clients are written on bare sockets. After its handshake each
// subscriber's socket is read by a goroutine of its own with a small
// buffer, or, with -reactor (Linux), by one goroutine with epoll for all
// of them; either way with no allocation per event, so that the bench's
// own cost per event stays below either server's.

// rawSubscriber is one client connection.
type rawSubscriber struct {
	c    net.Conn
	done chan struct{}
}

func (s *rawSubscriber) close() {
	_ = s.c.Close()
	<-s.done
}

// wsFrame is a masked client text frame holding msg, with a zero mask so
// the payload is sent as is.
func wsFrame(msg string) []byte {
	b := []byte{0x81}
	switch {
	case len(msg) < 126:
		b = append(b, 0x80|byte(len(msg)))
	default:
		b = append(b, 0x80|126, byte(len(msg)>>8), byte(len(msg)))
	}
	return append(append(b, 0, 0, 0, 0), msg...)
}

// openWS opens a graphql-transport-ws connection, initialises it and,
// once acknowledged, subscribes; a goroutine then reads its events.
func openWS(b *bench) (subscriber, error) {
	host := strings.TrimPrefix(b.base, "http://")
	c, err := net.Dial("tcp", host)
	if err != nil {
		return nil, err
	}
	req := "GET /graphql HTTP/1.1\r\nHost: " + host + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" +
		"Sec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n"
	if _, err := c.Write(append([]byte(req), wsFrame(`{"type":"connection_init"}`)...)); err != nil {
		c.Close()
		return nil, err
	}
	br := bufio.NewReaderSize(c, 512)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		c.Close()
		return nil, fmt.Errorf("upgrade: %v %v", resp, err)
	}
	buf := make([]byte, 0, 256)
	op, msg, err := readFrame(br, buf)
	if err != nil || op != 1 || !bytes.Contains(msg, []byte(`"connection_ack"`)) {
		c.Close()
		return nil, fmt.Errorf("no connection_ack: %q %v", msg, err)
	}
	if _, err := c.Write(wsFrame(`{"id":"1","type":"subscribe","payload":{"query":"` + query + `"}}`)); err != nil {
		c.Close()
		return nil, err
	}
	if b.r != nil {
		early, _ := br.Peek(br.Buffered())
		p := &wsParser{b: b}
		s, err := b.r.adopt(c, early, p)
		if err != nil {
			return nil, err
		}
		p.pong = s.(*reactorConn).pong
		return s, nil
	}
	s := &rawSubscriber{c: c, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		for {
			op, msg, err := readFrame(br, buf)
			if err != nil {
				return
			}
			switch op {
			case 1:
				if bytes.Contains(msg, []byte(`"next"`)) {
					b.event()
				}
			case 9: // a ping: pong with its payload
				pong := append([]byte{0x8a, 0x80 | byte(len(msg)), 0, 0, 0, 0}, msg...)
				_, _ = c.Write(pong)
			case 8:
				return
			}
			buf = msg[:0]
		}
	}()
	return s, nil
}

// readFrame reads one unmasked server frame into buf and returns its
// opcode and payload (messages are single frames here).
func readFrame(br *bufio.Reader, buf []byte) (byte, []byte, error) {
	var h [2]byte
	if _, err := io.ReadFull(br, h[:]); err != nil {
		return 0, nil, err
	}
	n := uint64(h[1] & 0x7f)
	switch n {
	case 126:
		var e [2]byte
		if _, err := io.ReadFull(br, e[:]); err != nil {
			return 0, nil, err
		}
		n = uint64(binary.BigEndian.Uint16(e[:]))
	case 127:
		var e [8]byte
		if _, err := io.ReadFull(br, e[:]); err != nil {
			return 0, nil, err
		}
		n = binary.BigEndian.Uint64(e[:])
	}
	if n > 1<<20 {
		return 0, nil, fmt.Errorf("frame of %d bytes", n)
	}
	if uint64(cap(buf)) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if _, err := io.ReadFull(br, buf); err != nil {
		return 0, nil, err
	}
	return h[0] & 0x0f, buf, nil
}

// openSSE subscribes in graphql-sse's distinct connections mode: one
// POST with Accept: text/event-stream, whose response is the
// subscription's stream. It returns once the stream's headers arrived; a
// goroutine then reads its events.
func openSSE(b *bench) (subscriber, error) {
	host := strings.TrimPrefix(b.base, "http://")
	c, err := net.Dial("tcp", host)
	if err != nil {
		return nil, err
	}
	body := `{"query":"` + query + `"}`
	req := "POST /graphql HTTP/1.1\r\nHost: " + host + "\r\nAccept: text/event-stream\r\nContent-Type: application/json\r\n" +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
	if _, err := c.Write([]byte(req)); err != nil {
		c.Close()
		return nil, err
	}
	br := bufio.NewReaderSize(c, 512)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		c.Close()
		return nil, err
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		c.Close()
		return nil, fmt.Errorf("answered %s, %s", resp.Status, resp.Header.Get("Content-Type"))
	}
	if b.r != nil {
		early, _ := br.Peek(br.Buffered())
		return b.r.adopt(c, early, &sseParser{b: b, chunked: slices.Contains(resp.TransferEncoding, "chunked")})
	}
	s := &rawSubscriber{c: c, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		// The body may be chunked or not: the lines are found in it
		// either way. An event is "event: next\ndata: {...}\n\n";
		// comments (":") are keep-alives.
		lines := bufio.NewReaderSize(resp.Body, 512)
		for {
			line, err := lines.ReadSlice('\n')
			if err != nil && err != bufio.ErrBufferFull {
				return
			}
			if bytes.HasPrefix(line, []byte("data:")) && bytes.Contains(line, []byte(`"messageAdded"`)) {
				b.event()
			}
		}
	}()
	return s, nil
}
