package graft

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// The private dependencies graft keeps, each behind one seam whose test
// fails loudly when a Go or library upgrade changes what the seam relies
// on. Review the seam, not just the test, when one of these fails.

// timeout.go: the execution context hides package context's private link
// to the nearest cancelable ancestor (cancelCtxKey, learned by a probe),
// so derived contexts end with it and not with the ancestor.
func TestSeamContextCancelKey(t *testing.T) {
	if cancelCtxKey == nil {
		t.Fatal("the probe no longer learns package context's key for the nearest cancelable context: review deadlineCtx.Value (timeout.go)")
	}
	parent, cancelParent := context.WithCancelCause(context.Background())
	defer cancelParent(nil)
	if v := parent.Value(cancelCtxKey); v != any(parent) {
		t.Fatalf("package context's key leads to %T, not the cancelable context itself: review timeout.go", v)
	}
	var w watchdog
	d := w.start(parent, time.Hour)
	if d.Value(cancelCtxKey) != nil {
		t.Fatal("the execution context exposes its ancestor's cancel link")
	}
	child, cancelChild := context.WithCancelCause(d)
	defer cancelChild(nil)
	d.finish()
	<-child.Done()
	if !errors.Is(context.Cause(child), context.Canceled) || parent.Err() != nil {
		t.Fatalf("child cause %v, parent %v", context.Cause(child), parent.Err())
	}
}

// ws.go: websocket.Accept must take the connection through the
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
		t.Fatal("websocket.Accept no longer hijacks through the ResponseWriter it is given: review smallBuffers (ws.go)")
	}
	if a.sb.br.Size() != wsReadBufferSize {
		t.Fatalf("read buffer of %d bytes, want %d", a.sb.br.Size(), wsReadBufferSize)
	}
	ready := readyFunc(a.sb.conn)
	if runtime.GOOS != "windows" && ready == nil {
		t.Fatal("no input wait for a TCP connection: review ws_wait_unix.go")
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
}
