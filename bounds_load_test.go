//go:build unix

package graft_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/schema"
)

type bigArgs struct {
	N    int
	Size *int
}

// loadSchema has hello, big(n, size) (n strings of size bytes, default 1,000), wait, which
// blocks until release is closed, after telling entered, and the subscription quiet, which
// sends nothing.
func loadSchema(t testing.TB, entered chan<- struct{}, release <-chan struct{}) *schema.Schema {
	t.Helper()
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(context.Context) (string, error) { return "world", nil })
	schema.Query(b, "big", func(_ context.Context, a bigArgs) ([]string, error) {
		size := 1000
		if a.Size != nil {
			size = min(max(*a.Size, 0), 1<<20)
		}
		item := strings.Repeat("x", size)
		out := make([]string, max(a.N, 0))
		for i := range out {
			out[i] = item
		}
		return out, nil
	})
	// A subscription, so that the schema serves every streaming transport
	// (single-connection SSE needs one).
	schema.Subscription(b, "quiet", func(ctx context.Context, _ struct{}) (<-chan int, error) {
		return make(chan int), nil
	})
	schema.QueryNoArgs(b, "wait", func(ctx context.Context) (string, error) {
		entered <- struct{}{}
		select {
		case <-release:
		case <-ctx.Done():
		}
		return "done", nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestMaxInFlight: with MaxInFlight requests being served, one more is
// answered 503 SERVER_BUSY with Retry-After; once they finish, requests
// are served again.
func TestMaxInFlight(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	r, err := graft.NewRouter(loadSchema(t, entered, release), nil, graft.Config{MaxInFlight: 2, Logger: quietLogger})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	defer srv.Close()
	done := make(chan int, 2)
	for range 2 {
		go func() {
			resp, err := http.Post(srv.URL+"/graphql", "application/json", strings.NewReader(`{"query":"{ wait }"}`))
			if err != nil {
				done <- 0
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			done <- resp.StatusCode
		}()
	}
	<-entered
	<-entered
	got := post(t, r, `{ hello }`)
	if got.status != http.StatusServiceUnavailable || got.code(0) != graft.CodeServerBusy || got.header.Get("Retry-After") == "" {
		t.Fatalf("request over MaxInFlight: %d %v %s", got.status, got.header, got.raw)
	}
	close(release)
	for range 2 {
		if s := <-done; s != 200 {
			t.Fatalf("a waiting request answered %d", s)
		}
	}
	if got := post(t, r, `{ hello }`); got.status != 200 || got.body.Data["hello"] != "world" {
		t.Fatalf("after the others finished: %d %s", got.status, got.raw)
	}
}

// nonReader sends a GraphQL POST over its own TCP connection, whose
// receive buffer is small, reads only the status line, and never reads the
// rest of the answer. It returns the status line and the connection.
func nonReader(t testing.TB, addr, query string) (string, net.Conn) {
	t.Helper()
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
		if err != nil {
			return err
		}
		return serr
	}}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	body := fmt.Sprintf(`{"query":%q}`, query)
	fmt.Fprintf(conn, "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	line, err := bufio.NewReaderSize(conn, 16).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the status line: %v", err)
	}
	return strings.TrimSpace(line), conn
}

// heapAfterGC returns the live heap.
func heapAfterGC() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestSlowReadersBounded: clients that ask for large answers and never
// read them hold at most MaxBufferedBytes of answers; past it they get 503
// SERVER_BUSY, and small queries keep being answered.
func TestSlowReadersBounded(t *testing.T) {
	const budget = 4 << 20
	r, err := graft.NewRouter(loadSchema(t, nil, nil), nil, graft.Config{MaxBufferedBytes: budget, Logger: quietLogger})
	if err != nil {
		t.Fatal(err)
	}
	srv := newSmallBufferServer(t, r)
	base := heapAfterGC()
	statuses := map[string]int{}
	var conns []net.Conn
	for range 20 {
		line, conn := nonReader(t, srv.Listener.Addr().String(), `{ big(n: 1, size: 1000000) }`)
		conns = append(conns, conn)
		statuses[line]++
	}
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	held := heapAfterGC() - min(base, heapAfterGC())
	if statuses["HTTP/1.1 503 Service Unavailable"] == 0 || statuses["HTTP/1.1 200 OK"] == 0 {
		t.Fatalf("statuses = %v, want some answers and some 503s", statuses)
	}
	// Unbounded, the 20 answers would hold 20 MB.
	if held > budget+4<<20 {
		t.Fatalf("20 non-reading clients hold %d MiB of heap, want at most the %d MiB budget and change", held>>20, budget>>20)
	}
	if got := post(t, r, `{ hello }`); got.status != 200 || got.body.Data["hello"] != "world" {
		t.Fatalf("{ hello } while slow readers hold the budget: %d %s", got.status, got.raw)
	}
	busy := post(t, r, `{ big(n: 1, size: 1000000) }`)
	if busy.status != http.StatusServiceUnavailable || busy.code(0) != graft.CodeServerBusy || busy.header.Get("Retry-After") != "1" {
		t.Fatalf("a large answer over the budget: %d %v %.200s", busy.status, busy.header, busy.raw)
	}
}

// smallBufferListener gives each accepted connection a small kernel send
// buffer, so that an answer the client does not read stays in the
// server's memory instead of the kernel's.
type smallBufferListener struct{ net.Listener }

func (l smallBufferListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(4096)
	}
	return c, err
}

// newSmallBufferServer serves h over loopback TCP with small send buffers.
func newSmallBufferServer(t testing.TB, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(h)
	srv.Listener = smallBufferListener{srv.Listener}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}
