package fasthttpadapter_test

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttputil"

	"github.com/graftgql/graft"
	fasthttpadapter "github.com/graftgql/graft/adapter/fasthttpadapter"
	"github.com/graftgql/graft/internal/wiretest"
	"github.com/graftgql/graft/schema"
)

// TestHandlerWireCases runs the shared black-box cases through Handler on
// an in-memory fasthttp server, over real HTTP/1.1 bytes.
func TestHandlerWireCases(t *testing.T) {
	plain := inMemoryClient(t, wiretest.Router(t))
	protected := inMemoryClient(t, wiretest.ProtectedRouter(t))
	for _, c := range wiretest.Cases() {
		client := plain
		if c.Protected {
			client = protected
		}
		t.Run(c.Name, func(t *testing.T) {
			wiretest.Check(t, c, do(t, client, "http://graft.test", c))
		})
	}
}

// inMemoryClient serves the router with Handler on an in-memory listener
// and returns a net/http client dialling it.
func inMemoryClient(t *testing.T, router *graft.Router) *http.Client {
	t.Helper()
	ln := fasthttputil.NewInmemoryListener()
	srv := &fasthttp.Server{Handler: fasthttpadapter.Handler(router)}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Shutdown() })
	return &http.Client{Transport: &http.Transport{
		DialContext: func(context.Context, string, string) (net.Conn, error) { return ln.Dial() },
	}}
}

// do sends a case over HTTP with a net/http client.
func do(t *testing.T, client *http.Client, base string, c wiretest.Case) wiretest.Result {
	t.Helper()
	req, err := http.NewRequest(c.Method, base+c.Path, strings.NewReader(c.Body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range c.Header {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", c.Method, c.Path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return wiretest.Result{Status: resp.StatusCode, Header: resp.Header, Body: body}
}

// TestServe starts Serve on a loopback port, runs the cases over TCP, and
// shuts it down with the layer's cleanup running last.
func TestServe(t *testing.T) {
	layer := graft.NewLayer()
	cleaned := make(chan struct{})
	graft.Provide(layer, func(context.Context) (string, func(context.Context) error, error) {
		return "svc", func(context.Context) error { close(cleaned); return nil }, nil
	})
	router, err := graft.NewRouter(wiretest.Schema(t), layer, wiretest.Config())
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	// As shutdown begins, OnShutdown runs while the listener still serves.
	servedAtShutdown := -1
	onShutdown := func() {
		resp, err := http.Get("http://" + ln.Addr().String() + "/graphql?query=%7B__typename%7D")
		if err == nil {
			servedAtShutdown = resp.StatusCode
			resp.Body.Close()
		}
	}
	go func() {
		done <- fasthttpadapter.Serve(ctx, router, fasthttpadapter.ServeOptions{
			Host: "127.0.0.1", Listener: ln, Logger: slog.New(slog.DiscardHandler),
			OnStart: func(url string) { started <- url }, OnShutdown: onShutdown,
		})
	}()
	var url string
	select {
	case url = <-started:
	case err := <-done:
		t.Fatalf("Serve returned before starting: %v", err)
	}
	if want := "http://" + ln.Addr().String(); url != want {
		t.Errorf("OnStart URL = %q, want %q", url, want)
	}
	client := &http.Client{}
	for _, c := range wiretest.Cases() {
		if c.Protected {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			wiretest.Check(t, c, do(t, client, url, c))
		})
	}
	select {
	case <-cleaned:
		t.Fatal("layer cleanup ran while serving")
	default:
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if servedAtShutdown <= 0 {
		t.Error("OnShutdown did not run while the listener served")
	}
	select {
	case <-cleaned:
	default:
		t.Error("layer cleanup did not run by the time Serve returned")
	}
}

// TestServeRefusesLargeBodyBeforeReading checks the server-level limit:
// a Content-Length over the limit is answered 413 without the body.
func TestServeRefusesLargeBodyBeforeReading(t *testing.T) {
	router := wiretest.Router(t)
	ln := fasthttputil.NewInmemoryListener()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	started := make(chan struct{})
	go func() {
		done <- fasthttpadapter.Serve(ctx, router, fasthttpadapter.ServeOptions{
			Listener: ln, Logger: slog.New(slog.DiscardHandler), OnStart: func(string) { close(started) },
		})
	}()
	<-started
	conn, err := ln.Dial()
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.WriteString(conn, "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 999999\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	conn.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge || wiretest.FirstCode(body) != "PAYLOAD_TOO_LARGE" {
		t.Errorf("got %d %s, want 413 PAYLOAD_TOO_LARGE", resp.StatusCode, body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

func TestServeBusyPort(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	port := busy.Addr().(*net.TCPAddr).Port
	err = fasthttpadapter.Serve(context.Background(), wiretest.Router(t), fasthttpadapter.ServeOptions{
		Host: "127.0.0.1", Port: port, Logger: slog.New(slog.DiscardHandler),
	})
	if err == nil || !strings.Contains(err.Error(), busy.Addr().String()) {
		t.Errorf("Serve on a busy port = %v, want an error naming %s", err, busy.Addr())
	}
}

// TestServeFinishesInFlightRequests cancels Serve while a resolver is
// blocked and checks the request still gets its answer before Serve
// returns.
func TestServeFinishesInFlightRequests(t *testing.T) {
	entered := make(chan struct{})
	release := make(chan struct{})
	b := schema.New()
	schema.QueryNoArgs(b, "wait", func(context.Context) (string, error) {
		close(entered)
		<-release
		return "released", nil
	})
	router, err := graft.ToRouter(b, graft.NewLayer(), graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	started := make(chan string, 1)
	go func() {
		done <- fasthttpadapter.Serve(ctx, router, fasthttpadapter.ServeOptions{
			Host: "127.0.0.1", Listener: ln, Logger: slog.New(slog.DiscardHandler),
			OnStart: func(url string) { started <- url },
		})
	}()
	url := <-started
	type answer struct {
		status int
		body   string
	}
	answered := make(chan answer, 1)
	go func() {
		resp, err := http.Post(url+"/graphql", "application/json", strings.NewReader(`{"query":"{ wait }"}`))
		if err != nil {
			answered <- answer{0, err.Error()}
			return
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		answered <- answer{resp.StatusCode, string(body)}
	}()
	<-entered
	cancel()
	select {
	case err := <-done:
		t.Fatalf("Serve returned (%v) while a request was in flight", err)
	case a := <-answered:
		t.Fatalf("request answered (%d %s) before it was released", a.status, a.body)
	default:
	}
	close(release)
	if a := <-answered; a.status != 200 || !strings.Contains(a.body, `"wait":"released"`) {
		t.Errorf("in-flight request = %d %s, want 200 with data.wait", a.status, a.body)
	}
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}
