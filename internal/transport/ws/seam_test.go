package ws

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// websocket.Accept must take the connection through the
// ResponseWriter's Hijack (smallBuffers), use the small buffers it hands
// over, and read the bytes that arrived with the handshake through them;
// on Unix, the reader's wait (ws_wait_unix.go, a MSG_PEEK read) must see
// input without taking it.
func TestSeamWebSocketAccept(t *testing.T) {
	type accepted struct {
		sb  *smallBuffers
		c   *websocket.Conn
		err error
	}
	got := make(chan accepted, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		sb := &smallBuffers{ResponseWriter: w}
		c, err := websocket.Accept(sb, req, nil)
		got <- accepted{sb, c, err}
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	client, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer client.CloseNow()
	a := <-got
	if a.err != nil {
		t.Fatal(a.err)
	}
	defer a.c.CloseNow()
	if a.sb.conn == nil || a.sb.br == nil || a.sb.src == nil {
		t.Fatal("websocket.Accept no longer hijacks through the ResponseWriter it is given: review smallBuffers")
	}
	if a.sb.br.Size() != wsReadBufferSize {
		t.Fatalf("read buffer of %d bytes, want %d", a.sb.br.Size(), wsReadBufferSize)
	}
	ready := readyFunc(a.sb.conn)
	if runtime.GOOS != "windows" && ready == nil {
		t.Fatal("no input wait for a TCP connection: review wait_unix.go")
	}
	if err := client.Write(ctx, websocket.MessageText, []byte(`{"type":"ping"}`)); err != nil {
		t.Fatal(err)
	}
	if ready != nil {
		if err := ready(); err != nil {
			t.Fatalf("input wait: %v", err)
		}
	}
	typ, b, err := a.c.Read(ctx)
	if err != nil || typ != websocket.MessageText || string(b) != `{"type":"ping"}` {
		t.Fatalf("after the wait the message reads %v %q %v: the wait must not take input", typ, b, err)
	}
	// The library writes through the connection it was handed: a
	// message is gathered whole while written (collect) and goes out in
	// one write (flush).
	a.sb.src.collect()
	if err := a.c.Write(ctx, websocket.MessageText, []byte(`{"type":"pong"}`)); err != nil {
		t.Fatal(err)
	}
	a.sb.src.omu.Lock()
	gathered := len(*a.sb.src.out)
	a.sb.src.omu.Unlock()
	if want := 2 + len(`{"type":"pong"}`); gathered != want {
		t.Fatalf("%d bytes gathered while the library wrote a message, want %d (header and payload): review smallBuffers' writer", gathered, want)
	}
	if err := a.sb.src.flush(); err != nil {
		t.Fatal(err)
	}
	typ, b, err = client.Read(ctx)
	if err != nil || typ != websocket.MessageText || string(b) != `{"type":"pong"}` {
		t.Fatalf("client read %v %q %v", typ, b, err)
	}
}
