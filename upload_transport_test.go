package graft_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/valyala/fasthttp"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/adapter/fasthttpadapter"
	"github.com/graftgql/graft/adapter/lambdaadapter"
	"github.com/graftgql/graft/persisted"
)

// uploadTransport sends one multipart request to a router over one
// transport and returns the status and body of the answer.
type uploadTransport struct {
	name string
	send func(t *testing.T, r *graft.Router, body []byte, contentType string, header map[string]string) (int, string)
}

var uploadTransports = []uploadTransport{
	{"net/http", func(t *testing.T, r *graft.Router, body []byte, ct string, header map[string]string) (int, string) {
		srv := httptest.NewServer(r)
		defer srv.Close()
		req, err := http.NewRequest(http.MethodPost, srv.URL+"/graphql", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", ct)
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}},
	{"web handler", func(t *testing.T, r *graft.Router, body []byte, ct string, header map[string]string) (int, string) {
		req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
		req.Header.Set("Content-Type", ct)
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := graft.NewWebHandler(r).Handle(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}},
	{"fasthttp", func(t *testing.T, r *graft.Router, body []byte, ct string, header map[string]string) (int, string) {
		// A real fasthttp server as fasthttpadapter.Serve configures it,
		// streaming the body to the handler.
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		started := make(chan struct{})
		go func() {
			done <- fasthttpadapter.Serve(ctx, r, fasthttpadapter.ServeOptions{Listener: ln, OnStart: func(string) { close(started) }})
		}()
		<-started
		defer func() { cancel(); <-done }()
		req, err := http.NewRequest(http.MethodPost, "http://"+ln.Addr().String()+"/graphql", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", ct)
		for k, v := range header {
			req.Header.Set(k, v)
		}
		c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}},
	{"fasthttp handler, body read by fasthttp", func(t *testing.T, r *graft.Router, body []byte, ct string, header map[string]string) (int, string) {
		var c fasthttp.RequestCtx
		c.Request.Header.SetMethod("POST")
		c.Request.SetRequestURI("/graphql")
		c.Request.Header.SetContentType(ct)
		for k, v := range header {
			c.Request.Header.Set(k, v)
		}
		c.Request.SetBody(body)
		fasthttpadapter.Handler(r)(&c)
		return c.Response.StatusCode(), string(c.Response.Body())
	}},
	{"lambda", func(t *testing.T, r *graft.Router, body []byte, ct string, header map[string]string) (int, string) {
		h := map[string]string{"content-type": ct}
		for k, v := range header {
			h[strings.ToLower(k)] = v
		}
		e := events.APIGatewayV2HTTPRequest{Version: "2.0", RawPath: "/graphql", Headers: h,
			Body: base64.StdEncoding.EncodeToString(body), IsBase64Encoded: true}
		e.RequestContext.HTTP.Method = "POST"
		e.RequestContext.HTTP.Path = "/graphql"
		ev, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		out, err := lambdaadapter.Handler(r)(context.Background(), ev)
		if err != nil {
			t.Fatal(err)
		}
		resp := out.(events.APIGatewayV2HTTPResponse)
		return resp.StatusCode, resp.Body
	}},
}

// TestUploadOverEveryTransport: an upload, a batch of uploads, a limit and
// the CSRF refusal answer alike on every transport.
func TestUploadOverEveryTransport(t *testing.T) {
	content := bytes.Repeat([]byte{0, 1, 2, 250, 255}, 50_000) // 250 kB: a temporary file
	single, singleCT := multipartRequest(t, singleOp, `{"0":["variables.file"]}`,
		filePart{name: "0", filename: "données.bin", mediaType: "application/octet-stream", body: content})
	batch, batchCT := multipartRequest(t, `[`+singleOp+`,{"query":"mutation($files: [Upload!]!) { multipleUpload(files: $files) { sha256 } }","variables":{"files":[null,null]}}]`,
		`{"a":["0.variables.file","1.variables.files.1"],"b":["1.variables.files.0"]}`,
		filePart{name: "a", body: []byte("file a")}, filePart{name: "b", body: []byte("file b")})
	tooBig, tooBigCT := multipartRequest(t, singleOp, `{"0":["variables.file"]}`, filePart{name: "0", body: make([]byte, 300_001)})
	preflight := map[string]string{"graphql-preflight": "1"}
	for _, tr := range uploadTransports {
		t.Run(tr.name, func(t *testing.T) {
			dir := t.TempDir()
			r := uploadsRouter(t, graft.Config{MaxBatch: 5, CSRF: &graft.CSRFConfig{}, MaxBodyBytes: 1000,
				Uploads: graft.UploadConfig{MaxFileBytes: 300_000, TempDir: dir}})

			// JSON requests are unchanged beside uploads: MaxBodyBytes
			// still bounds them (fasthttp streams bodies here).
			status, body := tr.send(t, r, []byte(`{"query":"{ health }"}`), "application/json", nil)
			if status != 200 || body != `{"data":{"health":"ok"}}` {
				t.Fatalf("json: %d %s", status, body)
			}
			status, body = tr.send(t, r, []byte(`{"query":"{ health }","extensions":{"pad":"`+strings.Repeat("p", 1000)+`"}}`), "application/json", nil)
			if code, _ := errorAnswer(t, body); status != 413 || code != "PAYLOAD_TOO_LARGE" {
				t.Fatalf("json over MaxBodyBytes: %d %s", status, body)
			}

			// urql's Accept names multipart/mixed first: an upload still gets
			// one JSON answer.
			status, body = tr.send(t, r, single, singleCT, map[string]string{"graphql-preflight": "1",
				"Accept": "multipart/mixed, application/graphql-response+json, application/json, text/event-stream"})
			var one struct{ SingleUpload fileAnswer }
			decodeAnswer(t, status, body, &one)
			if one.SingleUpload.Sha256 != sha(content) || one.SingleUpload.Filename != "données.bin" ||
				one.SingleUpload.Mimetype != "application/octet-stream" {
				t.Fatalf("single: %+v", one.SingleUpload)
			}

			status, body = tr.send(t, r, batch, batchCT, preflight)
			if status != 200 {
				t.Fatalf("batch: %d %s", status, body)
			}
			want := fmt.Sprintf(`[{"data":{"singleUpload":{"filename":"a.bin","mimetype":"","encoding":"7bit","size":6,"sha256":%q}}},{"data":{"multipleUpload":[{"sha256":%q},{"sha256":%q}]}}]`,
				sha([]byte("file a")), sha([]byte("file b")), sha([]byte("file a")))
			if body != want {
				t.Fatalf("batch:\n got %s\nwant %s", body, want)
			}

			status, body = tr.send(t, r, tooBig, tooBigCT, preflight)
			if code, _ := errorAnswer(t, body); status != 413 || code != "UPLOAD_FILE_TOO_LARGE" {
				t.Fatalf("too big: %d %s", status, body)
			}

			status, body = tr.send(t, r, single, singleCT, nil)
			if code, _ := errorAnswer(t, body); status != 400 || code != "CSRF_PREVENTION_BLOCKED" {
				t.Fatalf("csrf: %d %s", status, body)
			}
			assertEmptyDir(t, dir)
		})
	}
}

// TestUploadWithPersistedQueryHooksAndAccessLog: a hash-only operation
// takes files, hooks see the operation and the bytes received, and the
// access log line counts them.
func TestUploadWithPersistedQueryHooksAndAccessLog(t *testing.T) {
	var logBuf bytes.Buffer
	var mu sync.Mutex
	var seen []string
	hook := graft.HookFuncs{AfterFunc: func(ctx context.Context, ev *graft.HookEvent) {
		mu.Lock()
		defer mu.Unlock()
		if ev.Phase == graft.PhaseAnswered {
			seen = append(seen, fmt.Sprintf("%s %s %d %d", ev.OperationType, ev.PersistedQuery, ev.Status, ev.Request.BytesReceived))
		}
	}}
	r := uploadsRouter(t, graft.Config{
		PersistedQueries: &persisted.Options{Mode: persisted.APQ},
		Hooks:            []graft.Hook{hook},
		AccessLog:        slogTo(&logBuf),
		MaxBatch:         2,
	})
	query := "mutation($file: Upload!) { singleUpload(file: $file) { size sha256 } }"
	hash := sha([]byte(query))
	ext := `"extensions":{"persistedQuery":{"version":1,"sha256Hash":"` + hash + `"}}`

	// Hash only, not yet known: the store asks for the query.
	body, ct := multipartRequest(t, `{"variables":{"file":null},`+ext+`}`, `{"0":["variables.file"]}`, filePart{name: "0", body: []byte("abc")})
	status, resp := postMultipart(t, r, body, ct)
	if code, _ := errorAnswer(t, resp); code != "PERSISTED_QUERY_NOT_FOUND" {
		t.Fatalf("unknown hash: %d %s", status, resp)
	}
	// With the query: registered, and run.
	qjson, _ := json.Marshal(query)
	body, ct = multipartRequest(t, `{"query":`+string(qjson)+`,"variables":{"file":null},`+ext+`}`, `{"0":["variables.file"]}`, filePart{name: "0", body: []byte("abc")})
	status, resp = postMultipart(t, r, body, ct)
	var data struct{ SingleUpload fileAnswer }
	decodeAnswer(t, status, resp, &data)
	// Hash only, now known.
	body, ct = multipartRequest(t, `{"variables":{"file":null},`+ext+`}`, `{"0":["variables.file"]}`, filePart{name: "0", body: []byte("hello")})
	status, resp = postMultipart(t, r, body, ct)
	decodeAnswer(t, status, resp, &data)
	if data.SingleUpload.Size != 5 || data.SingleUpload.Sha256 != sha([]byte("hello")) {
		t.Fatalf("hash only: %+v", data.SingleUpload)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 3 || seen[2] != fmt.Sprintf("mutation hit 200 %d", len(body)) {
		t.Fatalf("hooks saw %q (body %d bytes)", seen, len(body))
	}
	if !strings.Contains(logBuf.String(), fmt.Sprintf("bytes_received=%d", len(body))) {
		t.Fatalf("access log:\n%s", logBuf.String())
	}

	// A batch of two hash-only operations sharing a file: each is an
	// answer of its own; the first carries the body's bytes.
	seen = nil
	mu.Unlock()
	body, ct = multipartRequest(t, `[{"variables":{"file":null},`+ext+`},{"variables":{"file":null},`+ext+`}]`,
		`{"0":["0.variables.file","1.variables.file"]}`, filePart{name: "0", body: []byte("shared")})
	status, resp = postMultipart(t, r, body, ct)
	if status != 200 || strings.Count(resp, sha([]byte("shared"))) != 2 {
		t.Fatalf("batch: %d %s", status, resp)
	}
	mu.Lock()
	if want := []string{fmt.Sprintf("mutation hit 200 %d", len(body)), "mutation hit 200 0"}; fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Fatalf("hooks saw %q, want %q", seen, want)
	}
}

// openIn returns the open descriptors of the process that lead to files
// in dir, removed or not (Linux).
func openIn(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("needs /proc/self/fd")
	}
	var open []string
	for _, e := range entries {
		if target, err := os.Readlink("/proc/self/fd/" + e.Name()); err == nil && strings.HasPrefix(target, dir+"/") {
			open = append(open, target)
		}
	}
	return open
}

// TestUploadClientGoneMidway: a client that stops sending in the middle
// of a file leaves no temporary file and no open descriptor, and the
// server keeps serving.
func TestUploadClientGoneMidway(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts descriptors in /proc")
	}
	dir := t.TempDir()
	r := uploadsRouter(t, graft.Config{Uploads: graft.UploadConfig{TempDir: dir, MemoryFileBytes: 1024}})
	handled := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.ServeHTTP(w, req)
		handled <- struct{}{}
	}))
	defer srv.Close()
	health := func() {
		resp, err := http.Post(srv.URL+"/graphql", "application/json", strings.NewReader(`{"query":"{ health }"}`))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		<-handled
		if string(b) != `{"data":{"health":"ok"}}` {
			t.Fatalf("health: %s", b)
		}
	}
	health()

	// The first file arrives whole, the second half.
	full, ct := multipartRequest(t,
		`{"query":"mutation($files: [Upload!]!) { multipleUpload(files: $files) { size } }","variables":{"files":[null,null]}}`,
		`{"0":["variables.files.0"],"1":["variables.files.1"]}`,
		filePart{name: "0", body: make([]byte, 1<<20)}, filePart{name: "1", body: make([]byte, 1<<20)})
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(conn)
	fmt.Fprintf(w, "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", ct, len(full))
	w.Write(full[:len(full)*3/4])
	w.Flush()
	conn.Close()
	<-handled
	assertEmptyDir(t, dir)
	if open := openIn(t, dir); len(open) > 0 {
		t.Fatalf("descriptors still open: %q", open)
	}
	health()
}

func slogTo(w io.Writer) *slog.Logger { return slog.New(slog.NewTextHandler(w, nil)) }
