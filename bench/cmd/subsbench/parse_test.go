package main

import (
	"strings"
	"testing"
)

// feedSplit feeds stream to p in pieces of size n and reports whether p
// still reads.
func feedSplit(p streamParser, stream string, n int) bool {
	ok := true
	for len(stream) > 0 && ok {
		k := min(n, len(stream))
		ok = p.feed([]byte(stream[:k]))
		stream = stream[k:]
	}
	return ok
}

func chunk(s string) string {
	const hex = "0123456789abcdef"
	n, h := len(s), ""
	for ; n > 0; n >>= 4 {
		h = string(hex[n&15]) + h
	}
	return h + "\r\n" + s + "\r\n"
}

// TestSSEParser: a chunked or plain event stream, cut anywhere, counts
// each messageAdded event once, keep-alives none; the last chunk ends it.
func TestSSEParser(t *testing.T) {
	ev := "event: next\ndata: {\"data\":{\"messageAdded\":{\"id\":\"1\",\"text\":\"hi\"}}}\n\n"
	body := ":\n\n" + ev + ev + ":\n\n" + ev
	chunked := chunk(":\n\n") + chunk(ev+ev) + chunk(":\n\n") + chunk(ev)
	for n := 1; n <= len(chunked); n++ {
		for _, c := range []struct {
			chunked bool
			stream  string
		}{{false, body}, {true, chunked}} {
			b := &bench{}
			if !feedSplit(&sseParser{b: b, chunked: c.chunked}, c.stream, n) {
				t.Fatalf("chunked %v, pieces of %d: ended early", c.chunked, n)
			}
			if got := b.received.Load(); got != 3 {
				t.Fatalf("chunked %v, pieces of %d: %d events, want 3", c.chunked, n, got)
			}
		}
	}
	b := &bench{}
	if feedSplit(&sseParser{b: b, chunked: true}, chunk(ev)+"0\r\n\r\n", 7) || b.received.Load() != 1 {
		t.Error("the last chunk did not end the stream")
	}
}

func wsServerFrame(op byte, payload string) string {
	h := []byte{0x80 | op}
	switch {
	case len(payload) < 126:
		h = append(h, byte(len(payload)))
	default:
		h = append(h, 126, byte(len(payload)>>8), byte(len(payload)))
	}
	return string(h) + payload
}

// TestWSParser: frames cut anywhere count each next message once, a ping
// is answered with its pong, a close frame ends the stream.
func TestWSParser(t *testing.T) {
	next := wsServerFrame(1, `{"id":"1","type":"next","payload":{"data":{"messageAdded":{"id":"1"}}}}`)
	long := wsServerFrame(1, `{"id":"1","type":"next","payload":{"data":{"messageAdded":{"text":"`+strings.Repeat("x", 300)+`"}}}}`)
	stream := next + wsServerFrame(9, "p") + long + next
	for n := 1; n <= len(stream); n++ {
		b := &bench{}
		var pongs []string
		p := &wsParser{b: b, pong: func(f []byte) { pongs = append(pongs, string(f)) }}
		if !feedSplit(p, stream, n) {
			t.Fatalf("pieces of %d: ended early", n)
		}
		if got := b.received.Load(); got != 3 || len(pongs) != 1 || pongs[0] != "\x8a\x81\x00\x00\x00\x00p" {
			t.Fatalf("pieces of %d: %d events, pongs %q", n, got, pongs)
		}
	}
	b := &bench{}
	if feedSplit(&wsParser{b: b}, next+wsServerFrame(8, "")+next, 3) || b.received.Load() != 1 {
		t.Error("a close frame did not end the stream")
	}
}
