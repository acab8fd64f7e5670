package graft_test

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/schema"
)

// serveTestSchema builds a schema with hello (returns "world") and wait,
// which signals entered and blocks until release is closed.
func serveTestSchema(t *testing.T, entered chan<- struct{}, release <-chan struct{}) *schema.Schema {
	t.Helper()
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(context.Context) (string, error) { return "world", nil })
	schema.QueryNoArgs(b, "wait", func(ctx context.Context) (string, error) {
		if entered != nil {
			entered <- struct{}{}
		}
		select {
		case <-release:
			return "released", nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	})
	s, err := b.Build()
	if err != nil {
		t.Fatalf("build schema: %v", err)
	}
	return s
}

// serveTestRouter returns a router over serveTestSchema.
func serveTestRouter(t *testing.T, layer *graft.Layer, cfg graft.Config, entered chan<- struct{}, release <-chan struct{}) *graft.Router {
	t.Helper()
	r, err := graft.NewRouter(serveTestSchema(t, entered, release), layer, cfg)
	if err != nil {
		t.Fatalf("NewRouter: %v", err)
	}
	return r
}

// serveQuery posts a query and returns the status and the decoded body.
func serveQuery(t *testing.T, url, query string) (int, map[string]any) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"query": query})
	resp, err := http.Post(url+"/graphql", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Errorf("POST %s: %v", url, err)
		return 0, nil
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Errorf("response %q is not JSON: %v", raw, err)
	}
	return resp.StatusCode, out
}

// startServe runs graft.Serve in the background on a loopback listener and
// waits for OnStart. It returns the URL, the cancel function and a channel
// receiving Serve's result.
func startServe(t *testing.T, router *graft.Router, opts graft.ServeOptions) (string, context.CancelFunc, <-chan error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	opts.Listener = ln
	if opts.Host == "" {
		opts.Host = "127.0.0.1"
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	started := make(chan string, 1)
	opts.OnStart = func(url string) { started <- url }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- graft.Serve(ctx, router, opts) }()
	select {
	case url := <-started:
		t.Cleanup(cancel)
		return url, cancel, done
	case err := <-done:
		cancel()
		t.Fatalf("Serve returned before starting: %v", err)
	}
	return "", cancel, done
}

func TestServeAnswersQueriesAtOnStartURL(t *testing.T) {
	router := serveTestRouter(t, graft.NewLayer(), graft.Config{}, nil, nil)
	url, cancel, done := startServe(t, router, graft.ServeOptions{})
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Errorf("OnStart URL = %q, want http://127.0.0.1:<port>", url)
	}
	status, body := serveQuery(t, url, "{ hello }")
	if status != http.StatusOK {
		t.Errorf("status = %d, want 200", status)
	}
	if data, _ := body["data"].(map[string]any); data["hello"] != "world" {
		t.Errorf("body = %v, want data.hello = world", body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve returned %v after cancel, want nil", err)
	}
}

func TestServeOnStartURLForHost(t *testing.T) {
	tests := []struct {
		name, host, want string
	}{
		{"empty host is localhost", "", "http://localhost:"},
		{"all interfaces is localhost", "0.0.0.0", "http://localhost:"},
		{"IPv6 any is localhost", "::", "http://localhost:"},
		{"named host is kept", "127.0.0.1", "http://127.0.0.1:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
			router := serveTestRouter(t, graft.NewLayer(), graft.Config{}, nil, nil)
			got := make(chan string, 1)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				done <- graft.Serve(ctx, router, graft.ServeOptions{
					Host: tt.host, Listener: ln, Logger: slog.New(slog.DiscardHandler),
					OnStart: func(url string) { got <- url; cancel() },
				})
			}()
			if url := <-got; url != tt.want+port {
				t.Errorf("OnStart URL = %q, want %q", url, tt.want+port)
			}
			if err := <-done; err != nil {
				t.Errorf("Serve: %v", err)
			}
		})
	}
}

func TestServeRunsLayerAroundRequests(t *testing.T) {
	var (
		mu     sync.Mutex
		events []string
	)
	record := func(e string) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	}
	layer := graft.NewLayer()
	graft.Provide(layer, func(context.Context) (string, func(context.Context) error, error) {
		record("build")
		return "db", func(context.Context) error { record("cleanup"); return nil }, nil
	})
	router := serveTestRouter(t, layer, graft.Config{}, nil, nil)
	url, cancel, done := startServe(t, router, graft.ServeOptions{})
	if status, _ := serveQuery(t, url, "{ hello }"); status != http.StatusOK {
		t.Errorf("status = %d, want 200", status)
	}
	record("request")
	mu.Lock()
	before := strings.Join(events, ",")
	mu.Unlock()
	if before != "build,request" {
		t.Errorf("events while serving = %q, want build,request (no cleanup before shutdown)", before)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(events, ","); got != "build,request,cleanup" {
		t.Errorf("events = %q, want build,request,cleanup", got)
	}
}

func TestServeStartErrorStopsBeforeServing(t *testing.T) {
	layer := graft.NewLayer()
	graft.Provide(layer, func(context.Context) (int, func(context.Context) error, error) {
		return 0, nil, errors.New("database unreachable")
	})
	router := serveTestRouter(t, layer, graft.Config{}, nil, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	err = graft.Serve(context.Background(), router, graft.ServeOptions{
		Listener: ln, Logger: slog.New(slog.DiscardHandler),
		OnStart: func(string) { t.Error("OnStart called although the layer failed") },
	})
	if err == nil || !strings.Contains(err.Error(), "database unreachable") {
		t.Errorf("Serve error = %v, want the layer's error", err)
	}
}

// signalHandler is a slog handler that closes a channel when a record with
// the given message is logged.
type signalHandler struct {
	msg  string
	once *sync.Once
	ch   chan struct{}
}

func (h signalHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h signalHandler) Handle(_ context.Context, r slog.Record) error {
	if r.Message == h.msg {
		h.once.Do(func() { close(h.ch) })
	}
	return nil
}
func (h signalHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h signalHandler) WithGroup(string) slog.Handler      { return h }

func TestServeGracefulShutdownFinishesInFlightRequests(t *testing.T) {
	entered := make(chan struct{}, 1)
	release := make(chan struct{})
	router := serveTestRouter(t, graft.NewLayer(), graft.Config{}, entered, release)
	shuttingDown := make(chan struct{})
	logger := slog.New(signalHandler{msg: "graft: shutting down", once: new(sync.Once), ch: shuttingDown})
	url, cancel, done := startServe(t, router, graft.ServeOptions{Logger: logger})

	type result struct {
		status int
		body   map[string]any
	}
	answered := make(chan result, 1)
	go func() {
		status, body := serveQuery(t, url, "{ wait }")
		answered <- result{status, body}
	}()
	<-entered
	cancel()
	<-shuttingDown
	select {
	case err := <-done:
		t.Fatalf("Serve returned (%v) while a request was in flight", err)
	default:
	}
	close(release)
	res := <-answered
	if res.status != http.StatusOK {
		t.Errorf("in-flight status = %d, want 200", res.status)
	}
	if data, _ := res.body["data"].(map[string]any); data["wait"] != "released" {
		t.Errorf("in-flight body = %v, want data.wait = released", res.body)
	}
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

func TestServeClosesRequestsOutlivingTheGracePeriod(t *testing.T) {
	entered := make(chan struct{}, 1)
	release := make(chan struct{})
	defer close(release)
	router := serveTestRouter(t, graft.NewLayer(), graft.Config{}, entered, release)
	url, cancel, done := startServe(t, router, graft.ServeOptions{ShutdownGrace: 1})
	go func() {
		body := strings.NewReader(`{"query":"{ wait }"}`)
		if resp, err := http.Post(url+"/graphql", "application/json", body); err == nil {
			resp.Body.Close()
		}
	}()
	<-entered
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve after an expired grace period: %v, want nil", err)
	}
}

func TestServeBusyPortIsAnError(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	port := busy.Addr().(*net.TCPAddr).Port
	router := serveTestRouter(t, graft.NewLayer(), graft.Config{}, nil, nil)
	err = graft.Serve(context.Background(), router, graft.ServeOptions{
		Host: "127.0.0.1", Port: port, Logger: slog.New(slog.DiscardHandler),
		OnStart: func(string) { t.Error("OnStart called on a busy port") },
	})
	addr := "127.0.0.1:" + strconv.Itoa(port)
	if err == nil || !strings.Contains(err.Error(), addr) {
		t.Errorf("Serve on a busy port = %v, want an error naming %s", err, addr)
	}
}

func TestServeWithoutRouterOrHandlerIsAnError(t *testing.T) {
	if err := graft.Serve(context.Background(), nil, graft.ServeOptions{}); err == nil {
		t.Error("Serve(nil router, no Handler) = nil, want an error")
	}
}

// TestServeWriteTimeoutCutsASlowReader: a client that stops reading holds
// a write for longer than WriteTimeout; the write fails with a deadline
// error and the connection closes.
func TestServeWriteTimeoutCutsASlowReader(t *testing.T) {
	writeErr := make(chan error, 1)
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := make([]byte, 64<<10)
		for range 1024 { // 64 MiB: more than the socket buffers hold
			if _, err := w.Write(chunk); err != nil {
				writeErr <- err
				return
			}
		}
		writeErr <- nil
	})
	url, _, _ := startServe(t, nil, graft.ServeOptions{Handler: handler, WriteTimeout: 200 * time.Millisecond})
	c, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	// The client reads nothing until the handler is done.
	select {
	case err := <-writeErr:
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("the handler's write returned %v, want a deadline error", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("a write to a client that reads nothing never failed")
	}
	n, _ := io.Copy(io.Discard, c)
	if n >= 64<<20 {
		t.Fatalf("the client read %d bytes: the whole answer", n)
	}
}

// TestServeWriteTimeoutBoundsWritesNotTheHandler: a handler slower than
// WriteTimeout whose writes are quick still answers, and keep-alive
// requests on one connection go on answering past the timeout.
func TestServeWriteTimeoutBoundsWritesNotTheHandler(t *testing.T) {
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("slow") != "" {
			time.Sleep(300 * time.Millisecond)
		}
		io.WriteString(w, "ok")
	})
	url, _, _ := startServe(t, nil, graft.ServeOptions{Handler: handler, WriteTimeout: 100 * time.Millisecond})
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}
	defer client.CloseIdleConnections()
	for i, path := range []string{"/", "/?slow=1", "/", "/?slow=1", "/"} {
		resp, err := client.Get(url + path)
		if err != nil {
			t.Fatalf("request %d (%s): %v", i, path, err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 || string(body) != "ok" {
			t.Fatalf("request %d (%s): %d %q %v, want 200 ok", i, path, resp.StatusCode, body, err)
		}
	}
}

// TestServeWriteTimeoutLeavesStreamsAlone: with a WriteTimeout far below
// the life of a subscription, a WebSocket (hijacked: the protocol keeps
// its own write timeout) and an SSE stream (which sets a deadline per
// event) still deliver events after idling past it.
func TestServeWriteTimeoutLeavesStreamsAlone(t *testing.T) {
	router, _ := chatRouter(t, graft.Config{})
	url, _, _ := startServe(t, router, graft.ServeOptions{WriteTimeout: 100 * time.Millisecond})
	w := dialWS(t, &httptest.Server{URL: url})
	w.init()
	w.send(`{"id":"1","type":"subscribe","payload":{"query":"subscription { messageAdded(room: \"w\") { text } }"}}`)
	sse := streamPost(t, &httptest.Server{URL: url}, "text/event-stream", `{"query":"subscription { messageAdded(room: \"w\") { text } }"}`)
	br := bufio.NewReader(sse.Body)
	time.Sleep(400 * time.Millisecond) // idle past the timeout
	for _, text := range []string{"one", "two"} {
		if code, out := serveQuery(t, url, `mutation { postMessage(room: "w", author: "a", text: "`+text+`") { id } }`); code != 200 || out["errors"] != nil {
			t.Fatalf("postMessage: %d %v", code, out)
		}
		w.expect(`{"id":"1","type":"next","payload":{"data":{"messageAdded":{"text":"` + text + `"}}}}`)
		got := readUntil(t, br, "\n\n")
		for strings.HasPrefix(got, ":") { // a comment: the stream's heartbeat
			got = readUntil(t, br, "\n\n")
		}
		if !strings.Contains(got, `{"data":{"messageAdded":{"text":"`+text+`"}}}`) {
			t.Fatalf("SSE event %q, want %s", got, text)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestServeWriteTimeoutOnATLSListener: a listener other than TCP (here
// TLS) is served as it is, so net/http still sees *tls.Conn (r.TLS is
// set) and WriteTimeout is http.Server's: it covers the whole request, and
// a handler slower than it gets no answer through.
func TestServeWriteTimeoutOnATLSListener(t *testing.T) {
	certs := httptest.NewTLSServer(nil)
	cfg, pool := certs.TLS.Clone(), certs.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	certs.Close()
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("slow") != "" {
			time.Sleep(300 * time.Millisecond)
		}
		io.WriteString(w, strconv.FormatBool(r.TLS != nil))
	})
	started := make(chan string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go graft.Serve(ctx, nil, graft.ServeOptions{
		Handler: handler, Listener: tls.NewListener(tcp, cfg), Host: "127.0.0.1",
		WriteTimeout: 100 * time.Millisecond, Logger: slog.New(slog.DiscardHandler),
		OnStart: func(u string) { started <- u },
	})
	url := "https" + strings.TrimPrefix(<-started, "http")
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	defer client.CloseIdleConnections()
	resp, err := client.Get(url + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "true" {
		t.Fatalf("r.TLS set: %q, want true", body)
	}
	if resp, err := client.Get(url + "/?slow=1"); err == nil {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		t.Fatalf("a handler slower than http.Server's WriteTimeout answered %d %q", resp.StatusCode, body)
	}
}
