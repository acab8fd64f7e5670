//go:build unix

package graft_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/graftgql/graft"
)

// smallRecvDialer dials with a small receive buffer, so a client that does
// not read leaves what the server sends in the server's memory.
var smallRecvDialer = net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
	var serr error
	err := c.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	if err != nil {
		return err
	}
	return serr
}}

// streamNonReader is one transport's client that asks for query and
// never reads the answer; it returns what to close.
type streamNonReader func(t *testing.T, addr, query string) io.Closer

// rawStreamPost sends a POST with accept over its own connection and
// reads the status line only.
func rawStreamPost(accept string, headers ...string) streamNonReader {
	return func(t *testing.T, addr, query string) io.Closer {
		t.Helper()
		conn, err := smallRecvDialer.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		body := fmt.Sprintf(`{"query":%q}`, query)
		extra := ""
		for i := 0; i+1 < len(headers); i += 2 {
			extra += headers[i] + ": " + headers[i+1] + "\r\n"
		}
		fmt.Fprintf(conn, "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: %s\r\n%sContent-Length: %d\r\n\r\n%s",
			accept, extra, len(body), body)
		if _, err := bufio.NewReaderSize(conn, 16).ReadString('\n'); err != nil {
			t.Fatalf("reading the status line: %v", err)
		}
		return conn
	}
}

// wsNonReader opens a graphql-transport-ws connection, sends the query
// and never reads again.
func wsNonReader(t *testing.T, addr, query string) io.Closer {
	t.Helper()
	client := &http.Client{Transport: &http.Transport{DialContext: smallRecvDialer.DialContext}}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws://"+addr+"/graphql", &websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}, HTTPClient: client})
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadLimit(-1)
	w := &wsClient{t: t, c: c}
	w.init()
	w.send(fmt.Sprintf(`{"id":"1","type":"subscribe","payload":{"query":%q}}`, query))
	return closerFunc(func() error { return c.CloseNow() })
}

// sseSingleNonReader reserves a single-connection SSE stream, connects it
// without reading it, and sends the query on it.
func sseSingleNonReader(t *testing.T, addr, query string) io.Closer {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPut, "http://"+addr+"/graphql", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	token, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	conn, err := smallRecvDialer.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "GET /graphql HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nX-GraphQL-Event-Stream-Token: %s\r\n\r\n", token)
	if _, err := bufio.NewReaderSize(conn, 16).ReadString('\n'); err != nil {
		t.Fatalf("reading the status line: %v", err)
	}
	body := fmt.Sprintf(`{"query":%q,"extensions":{"operationId":"1"}}`, query)
	req, _ = http.NewRequest(http.MethodPost, "http://"+addr+"/graphql", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-GraphQL-Event-Stream-Token", string(token))
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("operation on the reserved stream: %d", resp.StatusCode)
	}
	return conn
}

type closerFunc func() error

func (f closerFunc) Close() error { return f() }

// streamTransports are the streaming transports, each with a client that
// does not read.
var streamTransports = []struct {
	name   string
	client streamNonReader
}{
	{"WebSocket", wsNonReader},
	{"SSE distinct connections", rawStreamPost("text/event-stream")},
	{"SSE single connection", sseSingleNonReader},
	{"multipart", rawStreamPost(`multipart/mixed;subscriptionSpec="1.0",application/json`)},
}

// TestStreamingAnswersBounded sends, over each streaming transport, 30
// clients that ask for a 2 MB answer and never read it, against a
// MaxBufferedBytes of 8 MiB. What the transports hold for them stays
// within the budget (the answers past it are refused with SERVER_BUSY),
// the heap grows by no more than the budget and a fixed overhead, and
// once the write timeout has passed the clients are disconnected and
// everything they held is released. Unbounded, the 30 answers held
// about 58 MiB on every transport.
func TestStreamingAnswersBounded(t *testing.T) {
	const budget = 8 << 20
	const overhead = 12 << 20
	for _, tr := range streamTransports {
		t.Run(tr.name, func(t *testing.T) {
			r, err := graft.NewRouter(loadSchema(t, nil, nil), nil, graft.Config{MaxBufferedBytes: budget, Logger: quietLogger,
				Subscriptions: graft.SubscriptionConfig{WriteTimeout: time.Second}})
			if err != nil {
				t.Fatal(err)
			}
			srv := newSmallBufferServer(t, r)
			base := heapAfterGC()
			var clients []io.Closer
			t.Cleanup(func() {
				for _, c := range clients {
					c.Close()
				}
			})
			for range 30 {
				clients = append(clients, tr.client(t, srv.Listener.Addr().String(), `{ big(n: 2, size: 1000000) }`))
			}
			waitFor(t, func() bool { return graft.StreamAnswersSettled(r) >= 30 })
			held, heap := graft.BufferedBytes(r), heapAfterGC()-min(base, heapAfterGC())
			t.Logf("30 non-reading clients: %d KiB held, heap +%d MiB", held>>10, heap>>20)
			if held > budget || heap > budget+overhead {
				t.Fatalf("held %d bytes, heap +%d MiB: want at most the %d MiB budget (and %d MiB of overhead)", held, heap>>20, budget>>20, overhead>>20)
			}
			waitFor(t, func() bool { return graft.BufferedBytes(r) == 0 })
			if heap := heapAfterGC() - min(base, heapAfterGC()); heap > overhead {
				t.Fatalf("heap +%d MiB after the non-reading clients were disconnected", heap>>20)
			}
		})
	}
}

// TestWebSocketQueriesCountInFlight: queries over WebSocket hold
// in-flight slots as over HTTP, so with MaxInFlight of them running, one
// more over HTTP answers 503 and one more over WebSocket gets SERVER_BUSY.
func TestWebSocketQueriesCountInFlight(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	r, err := graft.NewRouter(loadSchema(t, entered, release), nil, graft.Config{MaxInFlight: 2, Logger: quietLogger})
	if err != nil {
		t.Fatal(err)
	}
	srv := newSmallBufferServer(t, r)
	w := dialWS(t, srv)
	w.init()
	w.send(`{"id":"1","type":"subscribe","payload":{"query":"{ wait }"}}`)
	w.send(`{"id":"2","type":"subscribe","payload":{"query":"{ wait }"}}`)
	<-entered
	<-entered
	if got := post(t, r, `{ hello }`); got.status != http.StatusServiceUnavailable || got.code(0) != graft.CodeServerBusy {
		t.Fatalf("HTTP with two WebSocket queries in flight: %d %s", got.status, got.raw)
	}
	w.send(`{"id":"3","type":"subscribe","payload":{"query":"{ hello }"}}`)
	if got := w.read(); !strings.Contains(got, `"id":"3","type":"error"`) || !strings.Contains(got, graft.CodeServerBusy) {
		t.Fatalf("a third WebSocket query: %s", got)
	}
	close(release)
	for range 4 { // two next and two complete
		w.read()
	}
	// The slots are given back once the answers are written.
	waitFor(t, func() bool { return post(t, r, `{ hello }`).status == 200 })
}
