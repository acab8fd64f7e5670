package lifecycle

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"
)

// callLog records, per accepted connection, the deadline calls net/http
// makes on it.
type callLog struct {
	mu    sync.Mutex
	calls []string
}

func (l *callLog) add(s string) {
	l.mu.Lock()
	l.calls = append(l.calls, s)
	l.mu.Unlock()
}

func (l *callLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.calls
	l.calls = nil
	return c
}

// spyConn is a real connection that logs the deadline calls made on it:
// "write:zero", "write:set", "both:zero", "both:set".
type spyConn struct {
	net.Conn
	log *callLog
}

func name(t time.Time) string {
	if t.IsZero() {
		return "zero"
	}
	return "set"
}

func (c spyConn) SetWriteDeadline(t time.Time) error {
	c.log.add("write:" + name(t))
	return c.Conn.SetWriteDeadline(t)
}

func (c spyConn) SetDeadline(t time.Time) error {
	c.log.add("both:" + name(t))
	return c.Conn.SetDeadline(t)
}

type spyListener struct {
	net.Listener
	log *callLog
}

func (l spyListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return spyConn{c, l.log}, nil
}

// TestSeamNetHTTPDeadlines pins what BoundWrites relies on in net/http's
// handling of a connection (see boundConn): with Server.WriteTimeout 0,
// net/http sets no write deadline of its own on a request (only clears
// one); http.ResponseController's SetWriteDeadline reaches the connection
// as SetWriteDeadline; and hijacking a connection (WebSocket) calls
// SetDeadline with the zero time, which hands the deadlines to the
// hijacker. If this fails after a Go upgrade, review writebound.go: a
// hijacked WebSocket could keep the request's write bound, or a request's
// bound could be lost.
func TestSeamNetHTTPDeadlines(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	log := &callLog{}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/explicit":
			if err := http.NewResponseController(w).SetWriteDeadline(time.Now().Add(time.Hour)); err != nil {
				t.Error(err)
			}
		case "/hijack":
			c, rw, err := http.NewResponseController(w).Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			_, _ = rw.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
			_ = rw.Flush()
			_ = c.Close()
			return
		}
		_, _ = io.WriteString(w, "ok")
	})}
	go func() { _ = srv.Serve(spyListener{ln, log}) }()
	defer srv.Close()

	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	br := bufio.NewReader(conn)
	get := func(path string) {
		t.Helper()
		fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	count := func(calls []string, want string) (n int) {
		for _, c := range calls {
			if c == want {
				n++
			}
		}
		return n
	}
	// Plain requests on a kept-alive connection.
	get("/")
	get("/")
	if calls := log.take(); count(calls, "write:set") != 0 || count(calls, "both:set") != 0 {
		t.Fatalf("net/http set deadlines of its own on plain requests with WriteTimeout 0: %v", calls)
	}
	get("/explicit")
	if calls := log.take(); count(calls, "write:set") != 1 {
		t.Fatalf("ResponseController.SetWriteDeadline made calls %v, want one write:set", calls)
	}
	get("/hijack")
	if calls := log.take(); count(calls, "both:zero") != 1 {
		t.Fatalf("hijacking made calls %v, want one SetDeadline(zero) handing the deadlines over", calls)
	}
}

// BenchmarkWriteBound compares the per-request cost of bounding writes
// with http.Server.WriteTimeout (a deadline set on every request) and
// with BoundWrites (renewed about once per timeout/8), over 64 kept-alive
// loopback connections sending requests at once.
func BenchmarkWriteBound(b *testing.B) {
	for _, mode := range []string{"server-write-timeout", "bound-writes", "no-bound"} {
		b.Run(mode, func(b *testing.B) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.WriteString(w, "ok")
			})}
			serveOn := ln
			switch mode {
			case "bound-writes":
				serveOn = BoundWrites(ln, 10*time.Second)
			case "server-write-timeout":
				srv.WriteTimeout = 10 * time.Second
			}
			go func() { _ = srv.Serve(serveOn) }()
			defer srv.Close()
			req := []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
			b.ReportAllocs()
			b.SetParallelism(32)
			b.RunParallel(func(pb *testing.PB) {
				conn, err := net.Dial("tcp", ln.Addr().String())
				if err != nil {
					b.Error(err)
					return
				}
				defer conn.Close()
				br := bufio.NewReader(conn)
				for pb.Next() {
					if _, err := conn.Write(req); err != nil {
						b.Error(err)
						return
					}
					resp, err := http.ReadResponse(br, nil)
					if err != nil {
						b.Error(err)
						return
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			})
		})
	}
}
