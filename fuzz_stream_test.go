package graft_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/chat"
	"github.com/graftgql/graft/pubsub"
	"github.com/graftgql/graft/schema"
)

// The WebSocket session fuzz target sends a script of client frames on
// one graphql-transport-ws connection and holds the server's answers to
// the protocol. A script is lines, each one frame (or a few bytes):
//
//	t<text>   a text message
//	b<bytes>  a binary message
//	f<text>   a text message in two fragments
//	p<data>   a ping control frame (q: a pong)
//	c<data>   a close control frame
//	L         a text message one byte over the read limit
//	r<bytes>  the bytes as they are, framing or not
//	<text>    any other line: a text message of the whole line
//
// wsFuzzLimit is the fuzz server's MaxBodyBytes, the limit of one message.
const wsFuzzLimit = 4096

// wsFuzzMaxOps is the fuzz server's MaxSubscriptionsPerConnection.
const wsFuzzMaxOps = 4

// wsFuzzServer serves the chat example for the fuzz targets: an
// OnConnect hook refuses a connection_init whose payload has "reject":
// true.
func wsFuzzServer(t testing.TB) *httptest.Server {
	t.Helper()
	ps := pubsub.NewMemory(pubsub.Options{})
	s, err := chat.New(ps).Schema()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, graft.Config{
		Logger:       quietLogger,
		MaxBodyBytes: wsFuzzLimit,
		Subscriptions: graft.SubscriptionConfig{
			InitTimeout:                   time.Minute,
			MaxSubscriptionsPerConnection: wsFuzzMaxOps,
			OnConnect: func(ctx context.Context, p map[string]any) (context.Context, error) {
				if p["reject"] == true {
					return nil, errors.New("rejected")
				}
				return ctx, nil
			},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return srv
}

// wsStep is one line of a script.
type wsStep struct {
	kind byte
	data []byte
}

// parseWSScript splits a script into its steps (at most 64).
func parseWSScript(script string) []wsStep {
	var steps []wsStep
	for line := range strings.SplitSeq(script, "\n") {
		if len(steps) == 64 {
			break
		}
		if line == "" {
			continue
		}
		switch line[0] {
		case 't', 'b', 'f', 'p', 'q', 'c', 'r':
			steps = append(steps, wsStep{line[0], []byte(line[1:])})
		case 'L':
			steps = append(steps, wsStep{'L', bytes.Repeat([]byte("x"), wsFuzzLimit+1)})
		default:
			steps = append(steps, wsStep{'t', []byte(line)})
		}
	}
	return steps
}

// wsClientFrame is a masked client frame.
func wsClientFrame(opcode byte, fin bool, payload []byte) []byte {
	b0 := opcode
	if fin {
		b0 |= 0x80
	}
	var b []byte
	switch n := len(payload); {
	case n < 126:
		b = []byte{b0, 0x80 | byte(n)}
	case n <= 0xffff:
		b = []byte{b0, 0x80 | 126, byte(n >> 8), byte(n)}
	default:
		b = binary.BigEndian.AppendUint64([]byte{b0, 0x80 | 127}, uint64(n))
	}
	mask := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	b = append(b, mask[:]...)
	for i, c := range payload {
		b = append(b, c^mask[i%4])
	}
	return b
}

// bytes returns what the client sends for the step.
func (s wsStep) bytes() []byte {
	control := s.data[:min(len(s.data), 125)]
	switch s.kind {
	case 'b':
		return wsClientFrame(0x2, true, s.data)
	case 'f':
		half := len(s.data) / 2
		return append(wsClientFrame(0x1, false, s.data[:half]), wsClientFrame(0x0, true, s.data[half:])...)
	case 'p':
		return wsClientFrame(0x9, true, control)
	case 'q':
		return wsClientFrame(0xa, true, control)
	case 'c':
		return wsClientFrame(0x8, true, control)
	case 'r':
		return s.data
	}
	return wsClientFrame(0x1, true, s.data)
}

// Close codes the server may send (docs/subscriptions.md).
var wsFuzzCloseCodes = []int{1000, 1001, 1002, 1007, 1009, 4400, 4401, 4403, 4406, 4408, 4409, 4429}

// wsModel is what the protocol makes the server answer to a script that
// frames every step (no raw bytes), up to the first step whose answer
// depends on timing (a subscribe reusing the id of an operation that may
// still run, which may close the connection with 4409).
type wsModel struct {
	certain   bool     // the answers below are exact
	acks      int      // connection_ack messages
	textPongs int      // pong messages
	ctlPongs  []string // pong control frames' payloads
	// close is the code of the server's close frame (0: none before the
	// client's; -1 a close frame with no code, answering the client's).
	close int
	// clientClosed: the script's close frame ends the connection.
	clientClosed bool
	// known holds the answers of operations whose answer is known, by id.
	known map[string][]string
}

// wsKnown are payloads whose answers are known (and TOO_MANY_SUBSCRIPTIONS
// when the connection runs too many operations).
var wsKnown = map[string][]string{
	`{"query":"{ __typename }"}`:                      {`{"data":{"__typename":"Query"}}`},
	`{"query":"subscription { countdown(from: 2) }"}`: {`{"data":{"countdown":2}}`, `{"data":{"countdown":1}}`, `{"data":{"countdown":0}}`},
	`{"query":"query($n: Int) { messages(room: \"fuzz-empty\", last: $n) { id } }","variables":{"n":3}}`: {`{"data":{"messages":[]}}`},
}

// modelWS runs the script through the protocol.
func modelWS(steps []wsStep) wsModel {
	m := wsModel{certain: true, known: map[string][]string{}}
	inited := false
	running := map[string]bool{}   // operations that may still run
	subscribed := map[string]int{} // subscribe messages by id
	for _, s := range steps {
		if s.kind == 'r' {
			m.certain = false
			return m
		}
	}
	fail := func(code int) { m.close = code }
	for _, s := range steps {
		if m.close != 0 || m.clientClosed {
			break
		}
		switch s.kind {
		case 'p':
			m.ctlPongs = append(m.ctlPongs, string(s.data[:min(len(s.data), 125)]))
			continue
		case 'q':
			continue
		case 'c':
			p := s.data[:min(len(s.data), 125)]
			switch {
			case len(p) == 1:
				fail(1002)
			case len(p) >= 2 && (!validCloseCode(int(binary.BigEndian.Uint16(p))) || !utf8.Valid(p[2:])):
				fail(1002)
			default:
				m.clientClosed = true
				m.close = -1
				if len(p) >= 2 {
					m.close = int(binary.BigEndian.Uint16(p))
				}
			}
			continue
		}
		if len(s.data) > wsFuzzLimit {
			// Refused by its length, before its bytes are read.
			fail(1009)
			continue
		}
		switch s.kind {
		case 'b':
			fail(4400)
			continue
		}
		if !utf8.Valid(s.data) {
			fail(1007)
			continue
		}
		msg, ok := decodeWSMessage(s.data)
		if !ok {
			fail(4400)
			continue
		}
		switch msg.typ {
		case "connection_init":
			switch {
			case inited:
				fail(4429)
			case !jsonObjectOrNull(msg.payload):
				fail(4400)
			case rejects(msg.payload):
				fail(4403)
			default:
				m.acks++
			}
			inited = true
		case "ping":
			m.textPongs++
		case "pong":
		case "subscribe":
			switch {
			case m.acks == 0:
				fail(4401)
			case msg.id == "" || msg.payload == nil:
				fail(4400)
			case running[msg.id]:
				// The earlier operation may have ended or not: 4409 or
				// an answer.
				m.certain = false
				return m
			default:
				running[msg.id] = true
				subscribed[msg.id]++
				if want, ok := wsKnown[compactJSON(msg.payload)]; ok && subscribed[msg.id] == 1 {
					m.known[msg.id] = want
				} else {
					delete(m.known, msg.id)
				}
			}
		case "complete":
			delete(running, msg.id)
			delete(m.known, msg.id)
		default:
			fail(4400)
		}
	}
	return m
}

// validCloseCode reports whether a client may send code (RFC 6455 7.4).
func validCloseCode(code int) bool {
	switch {
	case code >= 1000 && code <= 1003, code >= 1007 && code <= 1014, code >= 3000 && code <= 4999:
		return true
	}
	return false
}

// wsMsg is a client message as the protocol reads it.
type wsMsg struct {
	typ, id string
	payload json.RawMessage // nil when absent
}

// decodeWSMessage reads a client message: a JSON object whose type is a
// string and whose id, if any, a string or null.
func decodeWSMessage(b []byte) (wsMsg, bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(b, &fields) != nil || fields == nil {
		return wsMsg{}, false
	}
	var m wsMsg
	if raw, ok := fields["type"]; !ok || json.Unmarshal(raw, &m.typ) != nil {
		return wsMsg{}, false
	}
	if raw, ok := fields["id"]; ok && json.Unmarshal(raw, &m.id) != nil {
		return wsMsg{}, false
	}
	if raw, ok := fields["payload"]; ok {
		m.payload = raw
	}
	return m, true
}

func jsonObjectOrNull(b json.RawMessage) bool {
	if b == nil || string(b) == "null" {
		return true
	}
	var o map[string]json.RawMessage
	return json.Unmarshal(b, &o) == nil
}

func rejects(b json.RawMessage) bool {
	var o map[string]any
	_ = json.Unmarshal(b, &o)
	return o["reject"] == true
}

func compactJSON(b []byte) string {
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return ""
	}
	return out.String()
}

// wsObserved is what the server sent on a connection, checked as it
// arrives.
type wsObserved struct {
	mu        sync.Mutex
	changed   chan struct{} // a receive after every change
	problems  []string
	acks      int
	textPongs int
	ctlPongs  []string
	close     int // 0: none yet; -1: a close frame with no code
	ended     bool
	endErr    error
	// What each id received: payloads of next messages, then "complete"
	// or the error's code.
	byID       map[string][]string
	terminals  map[string]int
	subscribed func(id string) int
}

func (o *wsObserved) problem(format string, args ...any) {
	o.problems = append(o.problems, fmt.Sprintf(format, args...))
}

// read reads server frames from br until the socket ends.
func (o *wsObserved) read(br *bufio.Reader) {
	for {
		op, payload, err := readServerFrame(br)
		o.mu.Lock()
		if errors.Is(err, errBadServerFrame) {
			o.problem("%v", err)
		}
		if err != nil {
			o.ended, o.endErr = true, err
			o.mu.Unlock()
			o.notify()
			return
		}
		if o.close != 0 {
			o.problem("a frame %#x %q after the close frame", op, payload)
		}
		switch op {
		case 0x1:
			o.text(payload)
		case 0x8:
			o.close = -1
			if len(payload) >= 2 {
				o.close = int(binary.BigEndian.Uint16(payload))
			}
			if len(payload) == 1 || !utf8.Valid(payload[min(len(payload), 2):]) {
				o.problem("a bad close frame %q", payload)
			}
		case 0xa:
			o.ctlPongs = append(o.ctlPongs, string(payload))
		default:
			o.problem("a frame of opcode %#x", op)
		}
		o.mu.Unlock()
		o.notify()
	}
}

func (o *wsObserved) notify() {
	select {
	case o.changed <- struct{}{}:
	default:
	}
}

// text checks a server message; o.mu is held.
func (o *wsObserved) text(b []byte) {
	var m struct {
		ID      *string         `json:"id"`
		Type    string          `json:"type"`
		Payload json.RawMessage `json:"payload"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		o.problem("a message that is not JSON: %q", b)
		return
	}
	switch m.Type {
	case "connection_ack":
		o.acks++
		if o.acks > 1 {
			o.problem("a second connection_ack")
		}
		return
	case "pong":
		o.textPongs++
		return
	case "ping":
		return
	case "next", "error", "complete":
	default:
		o.problem("a message of type %q: %s", m.Type, b)
		return
	}
	if m.ID == nil || o.subscribed(*m.ID) == 0 {
		o.problem("a %s message for an id never subscribed: %s", m.Type, b)
		return
	}
	id := *m.ID
	if o.acks == 0 {
		o.problem("a %s message before connection_ack", m.Type)
	}
	if o.terminals[id] >= o.subscribed(id) {
		o.problem("a %s message for %q after its end: %s", m.Type, id, b)
	}
	switch m.Type {
	case "next":
		var p map[string]json.RawMessage
		if json.Unmarshal(m.Payload, &p) != nil || (p["data"] == nil && p["errors"] == nil) {
			o.problem("a next message whose payload is no result: %s", b)
		}
		o.byID[id] = append(o.byID[id], compactJSON(m.Payload))
	case "error":
		var errs []struct {
			Message    *string `json:"message"`
			Extensions struct {
				Code string `json:"code"`
			} `json:"extensions"`
		}
		if json.Unmarshal(m.Payload, &errs) != nil || len(errs) == 0 {
			o.problem("an error message whose payload is no errors: %s", b)
		}
		for _, e := range errs {
			if e.Message == nil || e.Extensions.Code == "" {
				o.problem("an error without a message or a code: %s", b)
			}
		}
		o.terminals[id]++
		if len(errs) > 0 {
			o.byID[id] = append(o.byID[id], "error "+errs[0].Extensions.Code)
		}
	case "complete":
		o.terminals[id]++
		o.byID[id] = append(o.byID[id], "complete")
	}
}

// waitFor waits until cond holds or the socket ends; o.mu is not held.
// It reports whether cond holds.
func (o *wsObserved) waitFor(cond func() bool) bool {
	for {
		o.mu.Lock()
		ok, ended := cond(), o.ended
		o.mu.Unlock()
		if ok || ended {
			return ok
		}
		<-o.changed
	}
}

// errBadServerFrame is a frame no server may send.
var errBadServerFrame = errors.New("a bad server frame")

// readServerFrame reads one server frame: unmasked and, for a control
// frame, final and within 125 bytes.
func readServerFrame(br *bufio.Reader) (byte, []byte, error) {
	var h [2]byte
	if _, err := io.ReadFull(br, h[:]); err != nil {
		return 0, nil, err
	}
	op, n := h[0]&0x0f, uint64(h[1]&0x7f)
	if h[1]&0x80 != 0 || h[0]&0x70 != 0 || h[0]&0x80 == 0 {
		return 0, nil, fmt.Errorf("%w: masked, reserved bits or fragmented: %#x %#x", errBadServerFrame, h[0], h[1])
	}
	switch n {
	case 126:
		var ext [2]byte
		if _, err := io.ReadFull(br, ext[:]); err != nil {
			return 0, nil, err
		}
		n = uint64(binary.BigEndian.Uint16(ext[:]))
	case 127:
		var ext [8]byte
		if _, err := io.ReadFull(br, ext[:]); err != nil {
			return 0, nil, err
		}
		n = binary.BigEndian.Uint64(ext[:])
	}
	if op >= 0x8 && n > 125 {
		return 0, nil, fmt.Errorf("%w: a control frame of %d bytes", errBadServerFrame, n)
	}
	if n > 16<<20 {
		return 0, nil, fmt.Errorf("%w: a frame of %d bytes", errBadServerFrame, n)
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(br, p); err != nil {
		return 0, nil, err
	}
	return op, p, nil
}

// wsSentinel is the payload of the ping that follows a script: its pong
// tells that the server read every frame before it.
const wsSentinel = "end of script"

// runWSScript runs a script on a new connection to addr, in writes of
// piece bytes (all at once when 0), and checks the answers.
func runWSScript(t *testing.T, addr, script string, piece int) {
	steps := parseWSScript(script)
	model := modelWS(steps)
	base := runtime.NumGoroutine()

	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// Every wait below ends by this deadline at the latest: a server that
	// neither answers nor closes fails the input.
	_ = c.SetDeadline(time.Now().Add(20 * time.Second))
	req := "GET /graphql HTTP/1.1\r\nHost: " + addr + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" +
		"Sec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n"
	if _, err := c.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("upgrade: %v %v", resp, err)
	}
	subscribed := map[string]int{}
	for _, s := range steps {
		if m, ok := decodeWSMessage(s.data); ok && m.typ == "subscribe" && (s.kind == 't' || s.kind == 'f') {
			subscribed[m.id]++
		}
	}
	o := &wsObserved{changed: make(chan struct{}, 1), byID: map[string][]string{}, terminals: map[string]int{},
		subscribed: func(id string) int { return subscribed[id] }}
	if !model.certain {
		// Ids the script may hold in raw bytes: any id is taken as
		// subscribed.
		o.subscribed = func(string) int { return 1 << 30 }
	}
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		o.read(br)
	}()

	var out []byte
	for _, s := range steps {
		out = append(out, s.bytes()...)
	}
	sentinel := wsClientFrame(0x9, true, []byte(wsSentinel))
	write := func(b []byte) {
		for len(b) > 0 {
			n := len(b)
			if piece > 0 {
				n = min(n, piece)
			}
			if _, err := c.Write(b[:n]); err != nil {
				return // the server closed the connection
			}
			b = b[n:]
		}
	}
	write(out)
	if model.certain {
		write(sentinel)
		// Every frame was read once the sentinel is answered, unless the
		// connection closed first.
		o.waitFor(func() bool { return o.close != 0 || slices.Contains(o.ctlPongs, wsSentinel) })
		// The operations whose answers are known end, and the pong
		// messages, each sent once the operations before its ping
		// started, arrive.
		o.waitFor(func() bool {
			if o.close != 0 {
				return true
			}
			if o.textPongs < model.textPongs {
				return false
			}
			for id := range model.known {
				if o.terminals[id] == 0 {
					return false
				}
			}
			return true
		})
		o.mu.Lock()
		closed := o.close != 0
		o.mu.Unlock()
		if !closed {
			write(wsClientFrame(0x8, true, []byte{0x03, 0xe8}))
		} else if !model.clientClosed {
			// The server's close is answered.
			write(wsClientFrame(0x8, true, []byte{0x03, 0xe8}))
		}
	} else {
		// Raw bytes may leave the server inside a frame: the end of the
		// input ends the connection.
		write(sentinel)
		_ = c.(*net.TCPConn).CloseWrite()
	}
	<-readerDone

	o.mu.Lock()
	defer o.mu.Unlock()
	var ne net.Error
	if errors.As(o.endErr, &ne) && ne.Timeout() {
		t.Fatalf("the server neither answered nor closed the connection; it sent %d acks, pongs %q, close %d", o.acks, o.ctlPongs, o.close)
	}
	if len(o.problems) > 0 {
		t.Fatalf("the server broke the protocol:\n%s", strings.Join(o.problems, "\n"))
	}
	echoes := slices.ContainsFunc(steps, func(s wsStep) bool { return s.kind == 'r' || s.kind == 'c' })
	if o.close > 0 && !slices.Contains(wsFuzzCloseCodes, o.close) && !echoes {
		t.Fatalf("closed with %d", o.close)
	}
	if model.certain {
		wantClose := model.close
		if wantClose == 0 {
			wantClose = 1000 // the client's close, answered
		}
		if o.close != wantClose {
			t.Fatalf("closed with %d, want %d", o.close, wantClose)
		}
		wantPongs := model.ctlPongs
		if model.close == 0 {
			wantPongs = append(slices.Clone(wantPongs), wsSentinel)
		}
		if !slices.Equal(o.ctlPongs, wantPongs) {
			t.Fatalf("pong frames %q, want %q", o.ctlPongs, wantPongs)
		}
		if o.acks != model.acks {
			t.Fatalf("%d acknowledgements, want %d", o.acks, model.acks)
		}
		if model.close == 0 && o.textPongs != model.textPongs {
			t.Fatalf("%d pong messages, want %d", o.textPongs, model.textPongs)
		}
		if model.close == 0 {
			for id, want := range model.known {
				got := o.byID[id]
				want = append(slices.Clone(want), "complete")
				if !slices.Equal(got, want) && !slices.Equal(got, []string{"error TOO_MANY_SUBSCRIPTIONS"}) {
					t.Fatalf("operation %q answered %q, want %q", id, got, want)
				}
			}
		}
	}
	waitGoroutinesTB(t, base)
}

// waitGoroutinesTB waits, a bounded number of rounds, until the goroutine
// count is back to base.
func waitGoroutinesTB(t testing.TB, base int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, want %d:\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
		runtime.Gosched()
	}
}

// wsFuzzSeeds are scripts of a well-behaved client and of a hostile one.
var wsFuzzSeeds = []string{
	"t{\"type\":\"connection_init\"}\nt{\"id\":\"1\",\"type\":\"subscribe\",\"payload\":{\"query\":\"{ __typename }\"}}\nt{\"type\":\"ping\"}",
	"t{\"type\":\"connection_init\",\"payload\":{\"a\":1}}\nt{\"id\":\"c\",\"type\":\"subscribe\",\"payload\":{\"query\":\"subscription { countdown(from: 2) }\"}}\np1\nq\nt{\"type\":\"pong\"}",
	"t{\"type\":\"connection_init\"}\nt{\"id\":\"m\",\"type\":\"subscribe\",\"payload\":{\"query\":\"subscription { messageAdded(room: \\\"r\\\") { id } }\"}}\nt{\"id\":\"m\",\"type\":\"complete\"}\nt{\"id\":\"m\",\"type\":\"subscribe\",\"payload\":{\"query\":\"{ __typename }\"}}",
	"t{\"type\":\"connection_init\"}\nt{\"id\":\"x\",\"type\":\"subscribe\",\"payload\":{\"query\":\"subscription { messageAdded(room: \\\"r\\\") { id } }\"}}\nt{\"id\":\"x\",\"type\":\"subscribe\",\"payload\":{\"query\":\"{ __typename }\"}}",
	"t{\"type\":\"connection_init\",\"payload\":{\"reject\":true}}",
	"t{\"type\":\"connection_init\",\"payload\":\"x\"}",
	"t{\"type\":\"connection_init\"}\nt{\"type\":\"connection_init\"}",
	"t{\"id\":\"1\",\"type\":\"subscribe\",\"payload\":{\"query\":\"{ __typename }\"}}",
	"t{\"type\":\"connection_init\"}\nt{\"id\":\"1\",\"type\":\"subscribe\",\"payload\":{\"query\":\"{ nope }\",\"variables\":{\"a\":[1,{}]},\"extensions\":{\"persistedQuery\":{\"version\":1}}}}",
	"t{\"type\":\"connection_init\"}\nt{\"id\":\"1\",\"type\":\"subscribe\",\"payload\":null}\nt{\"id\":\"2\",\"type\":\"subscribe\",\"payload\":[]}\nt{\"id\":\"3\",\"type\":\"subscribe\"}",
	"t{\"type\":\"connection_init\"}\nf{\"id\":\"1\",\"type\":\"subscribe\",\"payload\":{\"query\":\"query($n: Int) { messages(room: \\\"fuzz-empty\\\", last: $n) { id } }\",\"variables\":{\"n\":3}}}",
	"t{\"TYPE\":\"connection_init\"}",
	"t{\"type\":\"connection_init\"}\nL",
	"b{\"type\":\"connection_init\"}",
	"t\xff",
	"c\x03\xe8bye",
	"c\x03",
	"r\x81\xfe\x10\x00",
	"r\x88\x80\x00\x00\x00\x00",
	"{\"type\":\"ping\"}\n{\"type\":\"hello\"}",
}

// FuzzWebSocketSession sends scripts of client frames on
// graphql-transport-ws connections: the server answers as the protocol
// says (acknowledgement, pongs, answers of known operations, the close
// code), never sends a malformed frame or message, answers or closes by
// a deadline, and leaves no goroutine once the connection ends.
func FuzzWebSocketSession(f *testing.F) {
	for i, s := range wsFuzzSeeds {
		f.Add(s, uint8(i%3*5))
	}
	srv := wsFuzzServer(f)
	addr := strings.TrimPrefix(srv.URL, "http://")
	f.Fuzz(func(t *testing.T, script string, piece uint8) {
		runWSScript(t, addr, script, int(piece))
	})
}

// TestWebSocketScripts runs the scripts with which FuzzWebSocketSession
// found a defect, with the checks of the fuzz target.
func TestWebSocketScripts(t *testing.T) {
	srv := wsFuzzServer(t)
	addr := strings.TrimPrefix(srv.URL, "http://")
	for _, tt := range []struct{ name, script string }{
		// encoding/json matches names in any case: the message has no
		// type, and is answered 4400, not acknowledged.
		{"type spelt in capitals", "t{\"TYPE\":\"connection_init\"}"},
		{"id spelt in capitals", "t{\"type\":\"connection_init\"}\nt{\"ID\":\"1\",\"type\":\"subscribe\",\"payload\":{\"query\":\"{ __typename }\"}}"},
		// A close code over 4999 is no close code: 1002, not an echo.
		{"close code 12336", "c00"},
		// The reason of 4409 names the id: it is cut to fit a control
		// frame (125 bytes), on a character boundary.
		{"4409 with a long id", "t{\"type\":\"connection_init\"}\nt{\"id\":\"" + "a" + strings.Repeat("é", 100) + "\",\"type\":\"subscribe\",\"payload\":{\"query\":\"subscription { messageAdded(room: \\\"r\\\") { id } }\"}}\nt{\"id\":\"" + "a" + strings.Repeat("é", 100) + "\",\"type\":\"subscribe\",\"payload\":{\"query\":\"{ __typename }\"}}"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, piece := range []int{0, 1} {
				runWSScript(t, addr, tt.script, piece)
			}
		})
	}
}

// The SSE fuzz target sends a script of HTTP requests to graphql-sse's
// two modes. A script is lines, each one request:
//
//	P            a reservation (PUT); its token becomes the current one
//	G<accept>    the current token's event stream (GET, token in the query)
//	g<accept>    the same, with the token in the header
//	O<body>      an operation on the current token (POST)
//	D<id>        the end of operation id (DELETE ?operationId=id)
//	T<token>     the current token becomes token (T0…T9: the nth reserved)
//	M<method> <body>  any method, with the current token
//	C<type>      the Content-Type of the next POSTs
//	S<accept>\t<body> a distinct connections stream (POST, no token)
//
// An empty accept is text/event-stream.

// sseFuzzKnown are operations whose answers are known: the payloads of
// their next events, in order.
var sseFuzzKnown = map[string][]string{
	`{ __typename }`:                      {`{"data":{"__typename":"Query"}}`},
	`subscription { countdown(from: 2) }`: {`{"data":{"countdown":2}}`, `{"data":{"countdown":1}}`, `{"data":{"countdown":0}}`},
}

// sseStream is an event stream being read, and what it received.
type sseStream struct {
	token    string // "" for a distinct connections stream
	body     io.ReadCloser
	mu       sync.Mutex
	changed  chan struct{}
	problems []string
	ended    bool
	endErr   error
	// events are the stream's events: an operation's id is empty in
	// distinct connections mode.
	events []sseEvent
}

// sseEvent is an event of a stream.
type sseEvent struct{ kind, id, payload string }

// read reads the stream's events until it ends.
func (s *sseStream) read() {
	br := bufio.NewReader(s.body)
	first := true
	for {
		ev, err := readSSEEvent(br)
		s.mu.Lock()
		if err != nil {
			if errors.Is(err, errBadEvent) {
				s.problems = append(s.problems, err.Error())
			}
			s.ended, s.endErr = true, err
			s.mu.Unlock()
			s.notify()
			return
		}
		if first && ev != "" {
			s.problems = append(s.problems, "the stream does not begin with a comment: "+ev)
		}
		first = false
		if ev != "" {
			s.event(ev)
		}
		s.mu.Unlock()
		s.notify()
	}
}

func (s *sseStream) notify() {
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

// errBadEvent is an event no server may send.
var errBadEvent = errors.New("a bad event")

// readSSEEvent reads one event: its "event: …\ndata: …" lines, or "" for
// a comment.
func readSSEEvent(br *bufio.Reader) (string, error) {
	var lines []string
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			if line != "" || len(lines) > 0 {
				return "", fmt.Errorf("%w: the stream ends inside an event: %q %q", errBadEvent, lines, line)
			}
			return "", err
		}
		line = strings.TrimSuffix(line, "\n")
		if line == "" {
			return strings.Join(lines, "\n"), nil
		}
		if line == ":" {
			if len(lines) > 0 {
				return "", fmt.Errorf("%w: a comment inside an event: %q", errBadEvent, lines)
			}
			continue
		}
		lines = append(lines, line)
	}
}

// event checks one event; s.mu is held.
func (s *sseStream) event(ev string) {
	kind, data, ok := strings.Cut(ev, "\ndata: ")
	if !ok || strings.Contains(data, "\n") || (kind != "event: next" && kind != "event: complete") {
		s.problems = append(s.problems, fmt.Sprintf("an event that is neither next nor complete: %q", ev))
		return
	}
	kind = strings.TrimPrefix(kind, "event: ")
	if s.token == "" {
		switch {
		case kind == "complete" && data == "":
			s.events = append(s.events, sseEvent{kind: kind})
		case kind == "next" && isResult([]byte(data)):
			s.events = append(s.events, sseEvent{kind: kind, payload: compactJSON([]byte(data))})
		default:
			s.problems = append(s.problems, fmt.Sprintf("a bad %s event: %q", kind, data))
		}
		return
	}
	var m struct {
		ID      *string         `json:"id"`
		Payload json.RawMessage `json:"payload"`
	}
	if json.Unmarshal([]byte(data), &m) != nil || m.ID == nil || (kind == "next") != (m.Payload != nil) ||
		kind == "next" && !isResult(m.Payload) {
		s.problems = append(s.problems, fmt.Sprintf("a bad %s event: %q", kind, data))
		return
	}
	s.events = append(s.events, sseEvent{kind, *m.ID, compactJSON(m.Payload)})
}

// isResult reports whether b is a GraphQL result: an object with data or
// errors, each error with a message.
func isResult(b []byte) bool {
	var r struct {
		Data   json.RawMessage `json:"data"`
		Errors []struct {
			Message *string `json:"message"`
		} `json:"errors"`
	}
	if json.Unmarshal(b, &r) != nil || (r.Data == nil && r.Errors == nil) {
		return false
	}
	for _, e := range r.Errors {
		if e.Message == nil {
			return false
		}
	}
	return true
}

// waitFor waits until cond holds or the stream ends; it reports whether
// cond holds.
func (s *sseStream) waitFor(cond func() bool) bool {
	for {
		s.mu.Lock()
		ok, ended := cond(), s.ended
		s.mu.Unlock()
		if ok || ended {
			return ok
		}
		<-s.changed
	}
}

// sseRun is one script's run.
type sseRun struct {
	t       *testing.T
	url     string
	client  *http.Client
	ctx     context.Context
	streams []*sseStream
	wg      sync.WaitGroup
	// tokens are the tokens reserved, and connected those whose stream
	// was answered 200.
	tokens    []string
	connected map[string]*sseStream
	// accepted counts the operations answered 202, by token and id;
	// known holds those whose answer is known (posted once, never
	// deleted), and their query.
	accepted map[string]map[string]int
	known    map[string]map[string]string
	deleted  map[string]map[string]bool
}

// do sends a request and returns its status, header and body (read
// whole, unless it is an event stream it returns open).
func (r *sseRun) do(method, target, body string, header ...string) (*http.Response, []byte) {
	r.t.Helper()
	req, err := http.NewRequestWithContext(r.ctx, method, r.url+target, strings.NewReader(body))
	if err != nil {
		return nil, nil // a method net/http cannot send
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i+1] != "" {
			req.Header.Set(header[i], header[i+1])
		}
	}
	resp, err := r.client.Do(req)
	if err != nil {
		if r.ctx.Err() != nil {
			r.t.Fatalf("%s %s: no answer by the deadline", method, target)
		}
		// A header net/http refuses to send, for one.
		return nil, nil
	}
	if resp.StatusCode == http.StatusOK && strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return resp, nil
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	if err != nil {
		r.t.Fatalf("%s %s: reading the answer: %v", method, target, err)
	}
	return resp, b
}

// checkAnswer checks an answer that is not a stream: one of the statuses
// allowed, and an error answer GraphQL-shaped with a code.
func (r *sseRun) checkAnswer(what string, resp *http.Response, body []byte, allowed ...int) {
	r.t.Helper()
	if !slices.Contains(allowed, resp.StatusCode) {
		r.t.Fatalf("%s: status %d, want one of %v: %.300s", what, resp.StatusCode, allowed, body)
	}
	if resp.StatusCode < 400 || resp.Request.Method == http.MethodHead {
		return
	}
	var a hostileAnswer
	if err := json.Unmarshal(body, &a); err != nil || len(a.Errors) == 0 {
		r.t.Fatalf("%s: status %d with a body that is no GraphQL error: %.300s", what, resp.StatusCode, body)
	}
	for _, e := range a.Errors {
		if e.Message == "" || e.Extensions["code"] == nil {
			r.t.Fatalf("%s: status %d, an error without a message or a code: %.300s", what, resp.StatusCode, body)
		}
	}
	if resp.StatusCode >= 500 && resp.StatusCode != http.StatusServiceUnavailable {
		r.t.Fatalf("%s: status %d: %.300s", what, resp.StatusCode, body)
	}
}

// stream starts reading an event stream.
func (r *sseRun) stream(token string, resp *http.Response) *sseStream {
	s := &sseStream{token: token, body: resp.Body, changed: make(chan struct{}, 1)}
	r.streams = append(r.streams, s)
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		s.read()
	}()
	return s
}

// accept records operation id, answered 202 on token.
func (r *sseRun) accept(what, token, id, body, contentType string) {
	r.t.Helper()
	if id == "" || !slices.Contains(r.tokens, token) {
		r.t.Fatalf("%s: 202 without an operation id or a token", what)
	}
	if r.accepted[token] == nil {
		r.accepted[token], r.known[token] = map[string]int{}, map[string]string{}
	}
	r.accepted[token][id]++
	var q struct {
		Query string `json:"query"`
	}
	_ = json.Unmarshal([]byte(body), &q)
	if _, ok := sseFuzzKnown[q.Query]; ok && r.accepted[token][id] == 1 && contentType == "application/json" {
		r.known[token][id] = q.Query
	} else {
		delete(r.known[token], id)
	}
}

// operationID is what the server reads as a POST body's operation id.
func operationID(body string) (string, bool) {
	var b struct {
		Query      *string `json:"query"`
		Extensions struct {
			OperationID string `json:"operationId"`
		} `json:"extensions"`
	}
	if json.Unmarshal([]byte(body), &b) != nil {
		return "", false
	}
	return b.Extensions.OperationID, true
}

// runSSEScript runs a script against the server at url.
func runSSEScript(t *testing.T, url, script string) {
	base := runtime.NumGoroutine()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	transport := &http.Transport{DisableKeepAlives: true}
	r := &sseRun{t: t, url: url, ctx: ctx, client: &http.Client{Transport: transport},
		connected: map[string]*sseStream{}, accepted: map[string]map[string]int{},
		known: map[string]map[string]string{}, deleted: map[string]map[string]bool{}}
	var distinct []*sseStream
	distinctKnown := map[*sseStream][]string{}
	cur, contentType := "", "application/json"
	steps := strings.Split(script, "\n")
	if len(steps) > 32 {
		steps = steps[:32]
	}
	for _, line := range steps {
		if line == "" {
			continue
		}
		op, arg := line[0], line[1:]
		accept := arg
		if accept == "" {
			accept = "text/event-stream"
		}
		what := fmt.Sprintf("%q", line)
		switch op {
		case 'P':
			resp, body := r.do(http.MethodPut, "/graphql", "")
			if resp == nil {
				continue
			}
			r.checkAnswer(what, resp, body, http.StatusCreated, http.StatusServiceUnavailable)
			if resp.StatusCode == http.StatusCreated {
				if len(body) == 0 || strings.ContainsAny(string(body), "\r\n\t ") {
					t.Fatalf("%s: token %q", what, body)
				}
				cur = string(body)
				r.tokens = append(r.tokens, cur)
			}
		case 'G', 'g':
			target, header := "/graphql?token="+neturlQueryEscape(cur), []string{"Accept", accept}
			if op == 'g' {
				target, header = "/graphql", []string{"Accept", accept, "X-GraphQL-Event-Stream-Token", cur}
			}
			resp, body := r.do(http.MethodGet, target, "", header...)
			if resp == nil {
				continue
			}
			if body == nil {
				s := r.stream(cur, resp)
				if slices.Contains(r.tokens, cur) {
					if r.connected[cur] != nil {
						t.Fatalf("%s: a second stream for one token", what)
					}
					r.connected[cur] = s
				} else if strings.Trim(cur, " \t") != "" {
					// (A blank token is no token: net/http trims it.)
					t.Fatalf("%s: a stream for a token never reserved", what)
				} else {
					distinct = append(distinct, s)
					s.token = ""
				}
				continue
			}
			r.checkAnswer(what, resp, body, http.StatusNotFound, http.StatusConflict, http.StatusBadRequest,
				http.StatusNotAcceptable, http.StatusMethodNotAllowed, http.StatusServiceUnavailable, http.StatusOK)
			if resp.StatusCode == http.StatusConflict && r.connected[cur] == nil {
				t.Fatalf("%s: 409 for a token whose stream is not connected", what)
			}
		case 'O':
			resp, body := r.do(http.MethodPost, "/graphql", arg, "Content-Type", contentType, "X-GraphQL-Event-Stream-Token", cur)
			if resp == nil {
				continue
			}
			if body == nil {
				t.Fatalf("%s: an operation on a token answered with a stream", what)
			}
			if strings.Trim(cur, " \t") == "" {
				// No token: a plain GraphQL POST.
				r.checkAnswer(what, resp, body, http.StatusOK, http.StatusBadRequest, http.StatusRequestEntityTooLarge,
					http.StatusUnsupportedMediaType, http.StatusNotAcceptable, http.StatusForbidden)
				continue
			}
			r.checkAnswer(what, resp, body, http.StatusAccepted, http.StatusBadRequest, http.StatusNotFound, http.StatusConflict,
				http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType, http.StatusNotAcceptable,
				http.StatusMethodNotAllowed, http.StatusForbidden, http.StatusServiceUnavailable)
			id, _ := operationID(arg)
			if resp.StatusCode == http.StatusNotFound && slices.Contains(r.tokens, cur) && r.connected[cur] == nil && len(r.tokens) > 0 {
				// A reservation that lapsed; the fuzz server's lapse
				// is long.
				t.Fatalf("%s: 404 for a live reservation: %s", what, body)
			}
			if resp.StatusCode == http.StatusAccepted {
				r.accept(what, cur, id, arg, contentType)
			}
		case 'D':
			resp, body := r.do(http.MethodDelete, "/graphql?operationId="+neturlQueryEscape(arg), "", "X-GraphQL-Event-Stream-Token", cur)
			if resp == nil {
				continue
			}
			if strings.Trim(cur, " \t") == "" {
				// No token: not graphql-sse's.
				r.checkAnswer(what, resp, body, http.StatusMethodNotAllowed)
				continue
			}
			r.checkAnswer(what, resp, body, http.StatusOK, http.StatusNotFound)
			if resp.StatusCode == http.StatusNotFound && slices.Contains(r.tokens, cur) {
				t.Fatalf("%s: 404 for a live token", what)
			}
			if r.known[cur] != nil {
				delete(r.known[cur], arg)
			}
		case 'T':
			cur = arg
			if len(arg) == 1 && arg[0] >= '0' && arg[0] <= '9' && int(arg[0]-'0') < len(r.tokens) {
				cur = r.tokens[arg[0]-'0']
			}
		case 'C':
			contentType = arg
		case 'M':
			method, body, _ := strings.Cut(arg, " ")
			if method == "" {
				method = http.MethodGet // as net/http sends it
			}
			resp, b := r.do(method, "/graphql", body, "Content-Type", contentType, "X-GraphQL-Event-Stream-Token", cur)
			if resp == nil {
				continue
			}
			if b == nil {
				// An event stream.
				st := r.stream(cur, resp)
				if slices.Contains(r.tokens, cur) && method == http.MethodGet && r.connected[cur] == nil {
					r.connected[cur] = st
				} else {
					st.token = "?"
				}
				continue
			}
			r.checkAnswer(what, resp, b, http.StatusOK, http.StatusCreated, http.StatusAccepted, http.StatusNoContent,
				http.StatusBadRequest, http.StatusNotFound, http.StatusConflict, http.StatusMethodNotAllowed,
				http.StatusNotAcceptable, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType,
				http.StatusForbidden, http.StatusServiceUnavailable)
			if resp.StatusCode == http.StatusCreated && method == http.MethodPut {
				r.tokens = append(r.tokens, string(b))
			}
			if resp.StatusCode == http.StatusAccepted && method == http.MethodPost {
				id, _ := operationID(body)
				r.accept(what, cur, id, body, contentType)
			}
		case 'S':
			acc, body, _ := strings.Cut(arg, "\t")
			if acc == "" {
				acc = "text/event-stream"
			}
			resp, b := r.do(http.MethodPost, "/graphql", body, "Content-Type", contentType, "Accept", acc)
			if resp == nil {
				continue
			}
			if b == nil {
				s := r.stream("", resp)
				distinct = append(distinct, s)
				var q struct {
					Query string `json:"query"`
				}
				if json.Unmarshal([]byte(body), &q) == nil && contentType == "application/json" {
					if want, ok := sseFuzzKnown[q.Query]; ok && compactJSON([]byte(body)) == compactJSON([]byte(gqlBody(q.Query, "", ""))) {
						distinctKnown[s] = want
					}
				}
				continue
			}
			r.checkAnswer(what, resp, b, http.StatusOK, http.StatusBadRequest, http.StatusNotAcceptable,
				http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType, http.StatusMethodNotAllowed,
				http.StatusForbidden, http.StatusServiceUnavailable)
		}
	}

	// The operations whose answers are known are answered on their
	// streams.
	for token, ops := range r.known {
		s := r.connected[token]
		if s == nil {
			continue
		}
		for id, query := range ops {
			var want []sseEvent
			for _, p := range sseFuzzKnown[query] {
				want = append(want, sseEvent{"next", id, p})
			}
			want = append(want, sseEvent{kind: "complete", id: id})
			got := func() []sseEvent {
				var got []sseEvent
				for _, ev := range s.events {
					if ev.id == id {
						got = append(got, ev)
					}
				}
				return got
			}
			if !s.waitFor(func() bool { return slices.Contains(got(), sseEvent{kind: "complete", id: id}) }) && ctx.Err() != nil {
				t.Fatalf("operation %q of a stream not answered by the deadline", id)
			}
			s.mu.Lock()
			g := got()
			s.mu.Unlock()
			if !s.ended && !slices.Equal(g, want) {
				t.Fatalf("operation %q answered %q, want %q", id, g, want)
			}
		}
	}
	for s, want := range distinctKnown {
		s.waitFor(func() bool { return false })
		if ctx.Err() != nil {
			t.Fatal("a distinct stream of a known operation not ended by the deadline")
		}
		var events []sseEvent
		for _, p := range want {
			events = append(events, sseEvent{kind: "next", payload: p})
		}
		events = append(events, sseEvent{kind: "complete"})
		if !slices.Equal(s.events, events) {
			t.Fatalf("a distinct stream answered %q, want %q", s.events, want)
		}
	}
	// Reservations never connected are connected, which ends their
	// operations with the stream; then every stream is closed.
	for _, token := range r.tokens {
		if r.connected[token] != nil {
			continue
		}
		if resp, _ := r.do(http.MethodGet, "/graphql?token="+neturlQueryEscape(token), "", "Accept", "text/event-stream"); resp != nil && resp.StatusCode == http.StatusOK {
			r.stream(token, resp)
		}
	}
	for _, s := range r.streams {
		_ = s.body.Close()
	}
	r.wg.Wait()
	for _, s := range r.streams {
		if len(s.problems) > 0 {
			t.Fatalf("a stream broke the protocol:\n%s", strings.Join(s.problems, "\n"))
		}
		if s.token == "" || s.token == "?" {
			continue
		}
		// Every event is of an operation accepted on its token, and no
		// operation completes more often than it was accepted.
		completes := map[string]int{}
		for _, ev := range s.events {
			key := ev.id
			if r.accepted[s.token][key] == 0 {
				t.Fatalf("an event for an operation not accepted on its token: %q", ev)
			}
			if ev.kind == "complete" {
				completes[key]++
				if completes[key] > r.accepted[s.token][key] {
					t.Fatalf("operation %q completed %d times, accepted %d", key, completes[key], r.accepted[s.token][key])
				}
			}
		}
	}
	transport.CloseIdleConnections()
	waitGoroutinesTB(t, base)
}

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func neturlQueryEscape(s string) string { return url.QueryEscape(s) }

// sseFuzzSeeds are scripts of well-behaved clients and of hostile ones.
var sseFuzzSeeds = []string{
	"P\nG\nO{\"query\":\"{ __typename }\",\"extensions\":{\"operationId\":\"a\"}}",
	"P\nO{\"query\":\"subscription { countdown(from: 2) }\",\"extensions\":{\"operationId\":\"c\"}}\nG",
	"P\nG\nO{\"query\":\"subscription { messageAdded(room: \\\"r\\\") { id } }\",\"extensions\":{\"operationId\":\"m\"}}\nDm\nO{\"query\":\"{ __typename }\",\"extensions\":{\"operationId\":\"m\"}}",
	"P\nG\nO{\"query\":\"subscription { messageAdded(room: \\\"r\\\") { id } }\",\"extensions\":{\"operationId\":\"m\"}}\nO{\"query\":\"subscription { messageAdded(room: \\\"r\\\") { id } }\",\"extensions\":{\"operationId\":\"m\"}}",
	"P\nG\nG\ng",
	"P\nO{\"query\":\"{ nope }\",\"extensions\":{\"operationId\":\"x\"}}\nO{\"query\":\"{ __typename }\"}\nO{\"query\":\"{ __typename }\",\"extensions\":{\"operationId\":7}}\nO[]\nOnull",
	"Tnope\nG\nO{\"query\":\"{ __typename }\",\"extensions\":{\"operationId\":\"a\"}}\nDa",
	"P\nMPATCH {}\nMHEAD \nMOPTIONS \nMPUT \nT0\nMDELETE ",
	"P\nCtext/plain\nO{\"query\":\"{ __typename }\",\"extensions\":{\"operationId\":\"a\"}}",
	"S\t{\"query\":\"subscription { countdown(from: 2) }\"}",
	"Sapplication/json, text/event-stream;q=0.9\t{\"query\":\"{ __typename }\"}",
	"S\t{\"query\":\"subscription { nope }\"}\nS\tnot json\nStext/event-stream;q=0\t{\"query\":\"{ __typename }\"}",
	"Gtext/event-stream\nT\nO{\"query\":\"{ __typename }\",\"extensions\":{\"operationId\":\"a\"}}",
	"P\nG\nO{\"query\":\"subscription { countdown(from: 1000) }\",\"extensions\":{\"operationId\":\"\\u2028\\n\"}}\nD\u2028\n",
}

// FuzzSSE sends scripts of graphql-sse requests, in single connection
// mode (reservations, streams, operations, DELETE) and distinct
// connections mode: every answer has a status the protocol allows, an
// error answer is GraphQL-shaped with a code, the events are well-formed
// and belong to operations accepted on their token, known operations are
// answered exactly, nothing waits past a deadline, and once every stream
// is closed no goroutine remains.
func FuzzSSE(f *testing.F) {
	for _, s := range sseFuzzSeeds {
		f.Add(s)
	}
	srv := wsFuzzServer(f)
	f.Fuzz(func(t *testing.T, script string) {
		runSSEScript(t, srv.URL, script)
	})
}

// TestSSEScripts runs the scripts with which FuzzSSE found a defect, with
// the checks of the fuzz target.
func TestSSEScripts(t *testing.T) {
	srv := wsFuzzServer(t)
	for _, tt := range []struct{ name, script string }{
		// A GET with a body (net/http sends one for M with an empty
		// method): the body left unread kept net/http from noticing the
		// client leave, and the stream and its goroutine outlived it.
		// The GET is refused with 400.
		{"event stream with a body", "P\nM }"},
		{"event stream with a body, then without", "P\nM {}\nG"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			runSSEScript(t, srv.URL, tt.script)
		})
	}
}

// TestWebSocketNothingAfterTheClientsComplete: a query the client
// completes while it runs sends nothing more (graphql-transport-ws:
// "No further events, relevant to the original subscription, should be
// sent through"), so an id used again at once gets its own answer only.
func TestWebSocketNothingAfterTheClientsComplete(t *testing.T) {
	entered := make(chan struct{}, 1)
	w := slowQueryWS(t, func(ctx context.Context) string {
		entered <- struct{}{}
		<-ctx.Done()
		return "late"
	})
	// An idle connection holds no goroutine (the reader waits in the
	// poller, counted here).
	base := runtime.NumGoroutine()
	w.write(wsRawFrame(`{"id":"1","type":"subscribe","payload":{"query":"{ slow }"}}`), 128)
	<-entered
	w.write(wsRawFrame(`{"id":"1","type":"complete"}`), 64)
	// The query ends (its goroutine with it), having sent what it sends.
	waitGoroutinesTB(t, base)
	w.write(wsRawFrame(`{"type":"ping"}`), 64)
	w.expect(0x1, `{"type":"pong"}`)
}

// TestSSENoReservationsWithoutSubscriptions: a schema without
// subscriptions takes no reservation, with or without a token header:
// PUT is a 405 as any method the router does not serve.
func TestSSENoReservationsWithoutSubscriptions(t *testing.T) {
	b := schema.New()
	schema.Query(b, "hello", func(context.Context, struct{}) (string, error) { return "world", nil })
	s, err := b.Build()
	r := routerFor(t, s, err, graft.Config{Logger: quietLogger})
	for _, token := range []string{"", "any"} {
		req := httptest.NewRequest(http.MethodPut, "/graphql", nil)
		if token != "" {
			req.Header.Set("X-GraphQL-Event-Stream-Token", token)
		}
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, req)
		var a hostileAnswer
		if rec.Code != http.StatusMethodNotAllowed || json.Unmarshal(rec.Body.Bytes(), &a) != nil || a.code() != "BAD_REQUEST" {
			t.Errorf("PUT with token %q: %d %s, want 405 BAD_REQUEST", token, rec.Code, rec.Body)
		}
	}
}

// FuzzWebSocketUpgrade sends upgrade requests with arbitrary header
// lines: an upgrade the handshake rules accept (RFC 6455 4.2.1: the
// version 13, one key of 16 bytes in base64, an allowed origin) is
// answered 101 with the key's accept value and serves the protocol (4406
// without graphql-transport-ws, else the close is answered); any other is
// refused with a GraphQL error with a code, or by net/http when it is no
// HTTP request; nothing waits past a deadline, and nothing of the
// connection remains once it is closed.
func FuzzWebSocketUpgrade(f *testing.F) {
	good := "Upgrade: websocket\nConnection: Upgrade\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\nSec-WebSocket-Version: 13\n"
	for _, h := range []string{
		good + "Sec-WebSocket-Protocol: graphql-transport-ws",
		good + "Sec-WebSocket-Protocol: graphql-ws, graphql-transport-ws",
		good + "Sec-WebSocket-Protocol: graphql-ws",
		good,
		good + "Origin: http://x",
		good + "Origin: https://evil.example\nCookie: a=b",
		good + "Sec-WebSocket-Version: 8",
		good + "Sec-WebSocket-Key: x",
		good + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
		"Upgrade: WebSocket\nConnection: keep-alive, upgrade\nSec-WebSocket-Key: AQIDBAUGBwgJCgsMDQ4PEC==\nSec-WebSocket-Version: 13\nSec-WebSocket-Extensions: permessage-deflate\nSec-WebSocket-Protocol: graphql-transport-ws",
		"Upgrade: websocket\nConnection: close",
		"Connection: Upgrade\nUpgrade: h2c",
		good + "Content-Length: 3\n\nabc",
		good + "Transfer-Encoding: chunked",
		"X: \x00",
	} {
		f.Add(h)
	}
	srv := wsFuzzServer(f)
	addr := strings.TrimPrefix(srv.URL, "http://")
	f.Fuzz(func(t *testing.T, headers string) {
		runWSUpgrade(t, addr, headers)
	})
}

// runWSUpgrade sends an upgrade request with the header lines and checks
// the answer.
func runWSUpgrade(t *testing.T, addr, headers string) {
	head := "GET /graphql HTTP/1.1\r\nHost: x\r\n"
	for line := range strings.SplitSeq(headers, "\n") {
		head += line + "\r\n"
	}
	head += "\r\n"
	base := runtime.NumGoroutine()
	// What net/http reads of it, which the handshake's rules apply to.
	parsed, perr := http.ReadRequest(bufio.NewReader(strings.NewReader(head)))
	upgrade, protocol, lenient := false, false, false
	if perr == nil {
		h := parsed.Header
		key := h.Values("Sec-WebSocket-Key")
		k, kerr := base64Std(key)
		// net/http's server refuses header names and values its client
		// side reads, folded lines and a Host they changed.
		lenient = parsed.Host != "x" || strings.Contains(headers, "\n ") || strings.Contains(headers, "\n\t") ||
			strings.HasPrefix(headers, " ") || strings.HasPrefix(headers, "\t")
		for name, values := range h {
			valid := name != "" && !strings.ContainsFunc(name, func(r rune) bool {
				return r > 0x7e || r <= ' ' || strings.ContainsRune("\"(),/:;<=>?@[\\]{}", r)
			})
			for _, v := range values {
				valid = valid && !strings.ContainsFunc(v, func(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f })
			}
			lenient = lenient || !valid
		}
		upgrade = h.Get("Sec-WebSocket-Version") == "13" && len(key) == 1 && kerr == nil && len(k) == 16 && len(key[0]) == 24 &&
			strings.EqualFold(h.Get("Upgrade"), "websocket") && headerToken([]string{h.Get("Connection")}, "upgrade") &&
			sameOrigin(h.Get("Origin")) &&
			parsed.ContentLength == 0 && len(parsed.TransferEncoding) == 0
		// The first Connection value is a list of tokens.
		for name := range strings.SplitSeq(h.Get("Connection"), ",") {
			if strings.ContainsFunc(strings.Trim(name, " \t"), func(r rune) bool {
				return r <= ' ' || r >= 0x7f || strings.ContainsRune("\"(),/:;<=>?@[\\]{}", r)
			}) {
				upgrade = false
			}
		}
		for _, p := range h.Values("Sec-WebSocket-Protocol") {
			protocol = protocol || headerToken([]string{p}, "graphql-transport-ws")
			// A value is a list of names (RFC 6455 4.1, RFC 9110 5.6.1).
			names := 0
			for name := range strings.SplitSeq(p, ",") {
				name = strings.Trim(name, " \t")
				if name != "" {
					names++
				}
				if strings.ContainsFunc(name, func(r rune) bool {
					return r <= ' ' || r >= 0x7f || strings.ContainsRune("\"(),/:;<=>?@[\\]{}", r)
				}) {
					upgrade = false
				}
			}
			if names == 0 {
				upgrade = false
			}
		}
	}

	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(20 * time.Second))
	if _, err := c.Write([]byte(head)); err != nil {
		t.Fatal(err)
	}
	if perr != nil || parsed.ContentLength != 0 {
		// No upgrade: the end of the input ends a body (or a request)
		// the header lines left open.
		_ = c.(*net.TCPConn).CloseWrite()
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no answer to the upgrade: %v", err)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Fatalf("the answer %d never ended", resp.StatusCode)
		}
		if upgrade && !lenient && !(resp.StatusCode == http.StatusForbidden && parsed.Header.Get("Cookie") != "") {
			t.Fatalf("a valid upgrade refused: %d %s", resp.StatusCode, body)
		}
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/") {
			var a hostileAnswer
			if json.Unmarshal(body, &a) != nil || (len(a.Errors) == 0 && resp.StatusCode != http.StatusOK) {
				t.Fatalf("%d: an answer that is no GraphQL response: %.300s", resp.StatusCode, body)
			}
			for _, e := range a.Errors {
				if resp.StatusCode != http.StatusOK && e.Extensions["code"] == nil {
					t.Fatalf("%d: an error without a code: %.300s", resp.StatusCode, body)
				}
			}
			if resp.StatusCode >= 500 {
				t.Fatalf("%d: %.300s", resp.StatusCode, body)
			}
		} else if !slices.Contains([]int{400, 431, 501, 505}, resp.StatusCode) || perr == nil && !lenient {
			// net/http's own answers to what is no HTTP request it serves;
			// a request it serves is answered by the router.
			t.Fatalf("%d %q for a request net/http reads: %.300s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
		_ = c.Close()
		waitGoroutinesTB(t, base)
		return
	}
	if !upgrade {
		t.Fatalf("upgraded a request the handshake refuses:\n%s", head)
	}
	if got, want := resp.Header.Get("Sec-WebSocket-Accept"), acceptKey(parsed.Header.Get("Sec-WebSocket-Key")); got != want {
		t.Fatalf("Sec-WebSocket-Accept %q, want %q", got, want)
	}
	if p := resp.Header.Get("Sec-WebSocket-Protocol"); protocol != (p == "graphql-transport-ws") || (!protocol && p != "") {
		t.Fatalf("subprotocol %q chosen from %q", p, parsed.Header.Values("Sec-WebSocket-Protocol"))
	}
	if !protocol {
		op, p, err := readServerFrame(br)
		if err != nil || op != 0x8 || len(p) < 2 || binary.BigEndian.Uint16(p) != 4406 {
			t.Fatalf("without the subprotocol: frame %#x %q %v, want close 4406", op, p, err)
		}
	}
	if _, err := c.Write(wsClientFrame(0x8, true, []byte{0x03, 0xe8})); err != nil {
		t.Fatal(err)
	}
	if protocol {
		op, p, err := readServerFrame(br)
		if err != nil || op != 0x8 || string(p) != "\x03\xe8" {
			t.Fatalf("the close answered with %#x %q %v", op, p, err)
		}
	}
	if _, _, err := readServerFrame(br); err == nil {
		t.Fatal("a frame after the close")
	} else if ne := net.Error(nil); errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("the connection was not closed after the close handshake")
	}
	_ = c.Close()
	waitGoroutinesTB(t, base)
}

// sameOrigin reports whether origin is none or the fuzz requests' host
// (any scheme: the host is the origin's part an upgrade is checked by).
func sameOrigin(origin string) bool {
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && strings.EqualFold(u.Host, "x")
}

func headerToken(values []string, token string) bool {
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(part), token) {
				return true
			}
		}
	}
	return false
}

func base64Std(key []string) ([]byte, error) {
	if len(key) != 1 {
		return nil, errors.New("not one key")
	}
	return base64.StdEncoding.DecodeString(key[0])
}

// acceptKey is the Sec-WebSocket-Accept value of key (RFC 6455 4.2.2).
func acceptKey(key string) string {
	h := sha1.Sum([]byte(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	return base64.StdEncoding.EncodeToString(h[:])
}

// TestWebSocketUpgrades runs the upgrade requests with which
// FuzzWebSocketUpgrade found a defect, with the checks of the fuzz target.
func TestWebSocketUpgrades(t *testing.T) {
	srv := wsFuzzServer(t)
	addr := strings.TrimPrefix(srv.URL, "http://")
	good := "Upgrade: websocket\nConnection: Upgrade\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\nSec-WebSocket-Version: 13\nSec-WebSocket-Protocol: graphql-transport-ws\n"
	for _, tt := range []struct{ name, headers string }{
		// An upgrade with a body was upgraded, and the body's bytes read
		// as the connection's first frames. It is refused with 400.
		{"upgrade with a body", good + "Content-Length: 3\n\nabc"},
		{"upgrade with a chunked body", good + "Transfer-Encoding: chunked\n\n0\r\n"},
		// A subprotocol list that is not one was refused by the
		// upgrader with a plain-text 400 of its own; it is a GraphQL
		// error now.
		{"subprotocol not a token", strings.TrimSuffix(good, "Sec-WebSocket-Protocol: graphql-transport-ws\n") + "Sec-WebSocket-Protocol: graphql-w\x90"},
		{"subprotocol not a token after the one served", good + "Sec-WebSocket-Protocol: graphql-w\x90"},
		{"subprotocol list empty", good + "Sec-WebSocket-Protocol: , "},
		// The upgrader reads the first Connection header alone, and as
		// a list of tokens: it refused these with a plain-text 400.
		{"connection not a token list", strings.Replace(good, "Connection: Upgrade", "Connection: \x88 keep-alive, upgrade", 1)},
		{"connection upgrade in a second header", strings.Replace(good, "Connection: Upgrade", "Connection: keep-alive\nConnection: Upgrade", 1)},
		{"subprotocol with a separator", good + "Sec-WebSocket-Protocol: graphql-transport-ws; a=b"},
	} {
		t.Run(tt.name, func(t *testing.T) { runWSUpgrade(t, addr, tt.headers) })
	}
}

// TestWebSocketInitPayloadIsAnObject: connection_init's payload is an
// object, null or absent (graphql-transport-ws); any other closes the
// connection with 4400, with or without an OnConnect hook to read it.
func TestWebSocketInitPayloadIsAnObject(t *testing.T) {
	srv, _ := chatServer(t, graft.Config{})
	for _, payload := range []string{`"x"`, `[1]`, `1`, `true`} {
		w := dialWS(t, srv)
		w.send(`{"type":"connection_init","payload":` + payload + `}`)
		w.expectClose(4400, "Invalid message received")
	}
	for _, payload := range []string{`{}`, `null`, ` {"a":1}`} {
		w := dialWS(t, srv)
		w.send(`{"type":"connection_init","payload":` + payload + `}`)
		w.expect(`{"type":"connection_ack"}`)
	}
}

// TestWebSocketPingsWhileAnOperationStarts: the pong of a ping waits
// for the operations before it to start; a client sending many pings
// meanwhile costs the connection a count, not a goroutine each, and
// gets every pong once they have started.
func TestWebSocketPingsWhileAnOperationStarts(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	w := slowQueryWS(t, func(context.Context) string {
		close(entered)
		<-release
		return "done"
	})
	base := runtime.NumGoroutine()
	w.write(wsRawFrame(`{"id":"1","type":"subscribe","payload":{"query":"{ slow }"}}`), 128)
	<-entered
	const pings = 1000
	w.write(bytes.Repeat(wsRawFrame(`{"type":"ping"}`), pings), 1<<16)
	// The control frame's pong is written as it is read: every ping
	// before it was handled.
	w.write(wsControl(0x9, "after"), 16)
	w.expect(0xa, "after")
	// The operation's goroutines, the reader's and one for the pongs:
	// a few, not one a ping.
	if n := runtime.NumGoroutine() - base; n > 10 {
		t.Fatalf("%d goroutines for %d pings waiting for an operation to start", n, pings)
	}
	close(release)
	// The pongs go once the operation has started, which for a query is
	// once it has run: they may come before its next and complete
	// messages, between them or after them.
	const next, complete, pong = `{"id":"1","type":"next","payload":{"data":{"slow":"done"}}}`, `{"id":"1","type":"complete"}`, `{"type":"pong"}`
	var got []string
	pongs := 0
	for range pings + 2 {
		op, payload := w.frame()
		switch {
		case op == 0x1 && payload == pong:
			pongs++
		case op == 0x1 && (payload == next || payload == complete):
			got = append(got, payload)
		default:
			t.Fatalf("got frame %#x %q, want the query's messages and %d pongs", op, payload, pings)
		}
	}
	if pongs != pings || len(got) != 2 || got[0] != next || got[1] != complete {
		t.Errorf("got %d pongs and %q, want %d pongs and the next then the complete message", pongs, got, pings)
	}
}

// slowQueryWS serves a schema whose query slow answers what resolve
// returns, and returns a raw WebSocket connection to it, acknowledged.
func slowQueryWS(t *testing.T, resolve func(context.Context) string) *rawWS {
	t.Helper()
	b := schema.New()
	schema.Query(b, "slow", func(ctx context.Context, _ struct{}) (string, error) { return resolve(ctx), nil })
	s, err := b.Build()
	r := routerFor(t, s, err, graft.Config{Logger: quietLogger})
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	w := dialRawWS(t, strings.TrimPrefix(srv.URL, "http://"))
	w.write(wsRawFrame(`{"type":"connection_init"}`), 64)
	w.expect(0x1, `{"type":"connection_ack"}`)
	return w
}
