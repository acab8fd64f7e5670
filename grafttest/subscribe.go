package grafttest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// Transport is how Subscribe reaches the server.
type Transport int

// The subscription transports.
const (
	// SSE is graphql-sse's distinct connections mode: one event stream
	// per subscription.
	SSE Transport = iota
	// WebSocket is the graphql-transport-ws protocol.
	WebSocket
)

func (tr Transport) String() string {
	if tr == WebSocket {
		return "WebSocket"
	}
	return "SSE"
}

// eventWait bounds how long Next waits for an event, so that a missing
// event fails the test rather than hang it.
const eventWait = 30 * time.Second

// Subscription is a subscription opened by Subscribe.
type Subscription struct {
	t       testing.TB
	events  chan *Response // closed when the stream completes
	cancel  context.CancelFunc
	done    chan struct{} // closed when the reader has stopped
	reading bool          // the reader was started (or done is closed)
	srv     *httptest.Server
	once    sync.Once
}

// Subscribe opens a subscription over tr and returns once the server has
// registered it: its subscribe resolver has returned and its source
// stream is open, so an event published from now on reaches it. Over SSE
// that is when the event stream's headers arrive (the server writes them
// once the stream is open); over WebSocket, when the server answers a
// ping sent after the subscribe message (graft answers it once every
// operation received before it has started). An error before the stream
// starts (a validation error, say) is the subscription's only event.
//
// A subscription needs a connection: the handler is served to it on a
// loopback httptest.Server of its own, closed with it.
func (c *Client) Subscribe(t testing.TB, tr Transport, query string, vars map[string]any, opts ...Option) *Subscription {
	t.Helper()
	r := c.options(t, opts)
	ctx, cancel := context.WithCancel(r.ctx)
	s := &Subscription{t: t, events: make(chan *Response, 64), cancel: cancel, done: make(chan struct{}),
		srv: httptest.NewServer(c.handler)}
	t.Cleanup(s.Close)
	if tr == WebSocket {
		c.subscribeWS(ctx, s, r, query, vars)
	} else {
		c.subscribeSSE(ctx, s, r, query, vars)
	}
	return s
}

// subscribeSSE opens an event stream and reads its next events.
func (c *Client) subscribeSSE(ctx context.Context, s *Subscription, r request, query string, vars map[string]any) {
	t := s.t
	t.Helper()
	req := c.build(t, r, query, vars)
	req.Header.Set("Accept", "text/event-stream")
	u := s.srv.URL + req.URL.RequestURI()
	hreq, err := http.NewRequestWithContext(ctx, req.Method, u, req.Body)
	if err != nil {
		t.Fatalf("grafttest: %v", err)
	}
	hreq.Header = req.Header
	resp, err := s.srv.Client().Do(hreq)
	if err != nil {
		t.Fatalf("grafttest: subscribe over SSE: %v", err)
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		// Refused before any stream: the answer is the only event.
		defer resp.Body.Close()
		var body bytes.Buffer
		_, _ = body.ReadFrom(resp.Body)
		s.events <- newResponse(t, resp.StatusCode, resp.Header, body.Bytes())
		close(s.events)
		close(s.done)
		s.reading = true
		return
	}
	s.reading = true
	go func() {
		defer close(s.done)
		defer close(s.events)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
		event := ""
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event:"):
				event = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
			case strings.HasPrefix(line, "data:") && event == "next":
				data := []byte(strings.TrimSpace(strings.TrimPrefix(line, "data:")))
				if !s.send(ctx, http.StatusOK, resp.Header, data) {
					return
				}
			case line == "" && event == "complete":
				return
			}
		}
	}()
}

// subscribeWS opens a graphql-transport-ws connection, subscribes, and
// waits for the pong that follows the subscription's start.
func (c *Client) subscribeWS(ctx context.Context, s *Subscription, r request, query string, vars map[string]any) {
	t := s.t
	t.Helper()
	header := http.Header{}
	for k, vs := range c.Header {
		header[k] = vs
	}
	for k, vs := range r.header {
		header[k] = vs
	}
	path := c.Path
	if path == "" {
		path = "/graphql"
	}
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.srv.URL, "http")+path, &websocket.DialOptions{
		Subprotocols: []string{"graphql-transport-ws"}, HTTPHeader: header})
	if err != nil {
		t.Fatalf("grafttest: subscribe over WebSocket: %v", err)
	}
	conn.SetReadLimit(16 << 20)
	defer func() {
		if !s.reading {
			conn.CloseNow() // failed before the reader took the connection
		}
	}()
	write := func(v any) {
		t.Helper()
		if err := conn.Write(ctx, websocket.MessageText, mustJSON(t, v)); err != nil {
			t.Fatalf("grafttest: WebSocket write: %v", err)
		}
	}
	read := func() (typ string, payload json.RawMessage) {
		t.Helper()
		rctx, cancel := context.WithTimeout(ctx, eventWait)
		defer cancel()
		_, b, err := conn.Read(rctx)
		if err != nil {
			t.Fatalf("grafttest: WebSocket read: %v", err)
		}
		var m struct {
			Type    string          `json:"type"`
			Payload json.RawMessage `json:"payload"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("grafttest: WebSocket message %s: %v", b, err)
		}
		return m.Type, m.Payload
	}
	write(map[string]any{"type": "connection_init"})
	if typ, payload := read(); typ != "connection_ack" {
		t.Fatalf("grafttest: WebSocket: got %s %s, want connection_ack", typ, payload)
	}
	payload := map[string]any{"query": query}
	if vars != nil {
		payload["variables"] = vars
	}
	if r.operationName != "" {
		payload["operationName"] = r.operationName
	}
	if r.extensions != nil {
		payload["extensions"] = r.extensions
	}
	write(map[string]any{"id": "1", "type": "subscribe", "payload": payload})
	write(map[string]any{"type": "ping"})
	// Messages before the pong (an error, an early event) are kept.
	var early []json.RawMessage
	completed := false
	for {
		typ, p := read()
		if typ == "pong" {
			break
		}
		switch typ {
		case "next":
			early = append(early, p)
		case "error":
			early = append(early, json.RawMessage(`{"errors":`+string(p)+`}`))
			completed = true
		case "complete":
			completed = true
		}
	}
	s.reading = true
	go func() {
		defer close(s.done)
		defer close(s.events)
		defer conn.CloseNow()
		for _, p := range early {
			if !s.send(ctx, http.StatusOK, nil, p) {
				return
			}
		}
		if completed {
			return
		}
		for {
			_, b, err := conn.Read(ctx)
			if err != nil {
				return
			}
			var m struct {
				Type    string          `json:"type"`
				Payload json.RawMessage `json:"payload"`
			}
			if json.Unmarshal(b, &m) != nil {
				return
			}
			switch m.Type {
			case "next":
				if !s.send(ctx, http.StatusOK, nil, m.Payload) {
					return
				}
			case "error":
				s.send(ctx, http.StatusOK, nil, json.RawMessage(`{"errors":`+string(m.Payload)+`}`))
				return
			case "complete":
				return
			case "ping":
				_ = conn.Write(ctx, websocket.MessageText, []byte(`{"type":"pong"}`))
			}
		}
	}()
}

// send hands one event to Next; false when the subscription is closed.
func (s *Subscription) send(ctx context.Context, status int, header http.Header, body []byte) bool {
	var v struct {
		Data       json.RawMessage `json:"data"`
		Errors     []Error         `json:"errors"`
		Extensions map[string]any  `json:"extensions"`
	}
	r := &Response{Status: status, Header: header, Body: append([]byte(nil), body...)}
	if json.Unmarshal(body, &v) == nil {
		r.Data, r.Errors, r.Extensions = v.Data, v.Errors, v.Extensions
	}
	select {
	case s.events <- r:
		return true
	case <-ctx.Done():
		return false
	}
}

// Next returns the next event of the subscription, waiting for it; ok is
// false once the stream has completed. It fails t when no event comes
// within 30 seconds.
func (s *Subscription) Next(t testing.TB) (resp *Response, ok bool) {
	t.Helper()
	select {
	case r, ok := <-s.events:
		return r, ok
	case <-time.After(eventWait):
		t.Fatalf("grafttest: no subscription event within %v", eventWait)
		return nil, false
	}
}

// Close ends the subscription (the server sees the client go) and waits
// for its reader to stop. It is called at the end of the test too.
func (s *Subscription) Close() {
	s.once.Do(func() {
		s.cancel()
		if s.reading {
			<-s.done
		}
		s.srv.Close()
	})
}
