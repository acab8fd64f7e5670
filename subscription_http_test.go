package graft_test

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/graftgql/graft"
)

// streamPost sends a GraphQL POST with the given Accept and extra headers.
func streamPost(t *testing.T, srv *httptest.Server, accept, body string, headers ...string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/graphql", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// readUntil reads from br until the text read ends with suffix.
func readUntil(t *testing.T, br *bufio.Reader, suffix string) string {
	t.Helper()
	var b strings.Builder
	for !strings.HasSuffix(b.String(), suffix) {
		c, err := br.ReadByte()
		if err != nil {
			t.Fatalf("reading %q: %v (got %q)", suffix, err, b.String())
		}
		b.WriteByte(c)
	}
	return b.String()
}

func TestSSEDistinctCountdown(t *testing.T) {
	srv, _ := chatServer(t, graft.Config{})
	for _, accept := range []string{"text/event-stream", "application/json, text/event-stream;q=0.9"} {
		t.Run(accept, func(t *testing.T) {
			resp := streamPost(t, srv, accept, `{"query":"subscription { countdown(from: 1) }"}`)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream; charset=utf-8" {
				t.Fatalf("status %d, content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			body, _ := io.ReadAll(resp.Body)
			want := ":\n\n" +
				"event: next\ndata: {\"data\":{\"countdown\":1}}\n\n" +
				"event: next\ndata: {\"data\":{\"countdown\":0}}\n\n" +
				"event: complete\ndata: \n\n"
			if string(body) != want {
				t.Fatalf("\n got %q\nwant %q", body, want)
			}
		})
	}
}

func TestSSEDistinctErrorsAreEvents(t *testing.T) {
	srv, _ := chatServer(t, graft.Config{})
	resp := streamPost(t, srv, "text/event-stream", `{"query":"subscription { nope }"}`)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"code":"GRAPHQL_VALIDATION_FAILED"`) ||
		!strings.HasSuffix(string(body), "event: complete\ndata: \n\n") {
		t.Fatalf("status %d body %q", resp.StatusCode, body)
	}
}

func TestNoAcceptIsJSON(t *testing.T) {
	srv, _ := chatServer(t, graft.Config{})
	resp := streamPost(t, srv, "", `{"query":"subscription { countdown(from: 1) }"}`)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 400 || resp.Header.Get("Content-Type") != "application/json; charset=utf-8" ||
		!strings.Contains(string(body), "Subscriptions are not supported over this transport") {
		t.Fatalf("status %d %q body %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}

func TestSSESingleConnection(t *testing.T) {
	srv, _ := chatServer(t, graft.Config{CSRF: &graft.CSRFConfig{}})
	token := reserveSingleConnection(t, srv)
	get, _ := http.NewRequest(http.MethodGet, srv.URL+"/graphql?token="+token, nil)
	get.Header.Set("Accept", "text/event-stream")
	stream, err := http.DefaultClient.Do(get)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	br := bufio.NewReader(stream.Body)
	readUntil(t, br, ":\n\n")
	// A second stream for the same token is refused.
	again, _ := http.DefaultClient.Do(get)
	if again.StatusCode != http.StatusConflict {
		t.Fatalf("second stream: %d", again.StatusCode)
	}
	again.Body.Close()

	// text/plain is a simple content type: without the token it would be
	// blocked by CSRF prevention; the token counts as a preflight header.
	op := streamPost(t, srv, "", `{"query":"subscription { messageAdded(room: \"r\") { text } }","extensions":{"operationId":"op1"}}`,
		"X-GraphQL-Event-Stream-Token", token, "Content-Type", "text/plain")
	if op.StatusCode != http.StatusUnsupportedMediaType {
		// the CSRF check passed; decoding then refuses text/plain
		t.Fatalf("text/plain with a token: %d, want 415 (past CSRF)", op.StatusCode)
	}
	op = streamPost(t, srv, "", `{"query":"subscription { messageAdded(room: \"r\") { text } }","extensions":{"operationId":"op1"}}`,
		"X-GraphQL-Event-Stream-Token", token)
	if op.StatusCode != http.StatusAccepted {
		b, _ := io.ReadAll(op.Body)
		t.Fatalf("operation: %d %s", op.StatusCode, b)
	}
	bad := streamPost(t, srv, "", `{"query":"subscription { nope }","extensions":{"operationId":"op2"}}`,
		"X-GraphQL-Event-Stream-Token", token)
	if bad.StatusCode != 400 {
		t.Fatalf("validation error: %d", bad.StatusCode)
	}
	q := streamPost(t, srv, "", `{"query":"{ messages(room: \"r\") { text } }","extensions":{"operationId":"q"}}`,
		"X-GraphQL-Event-Stream-Token", token)
	if q.StatusCode != http.StatusAccepted {
		t.Fatalf("query: %d", q.StatusCode)
	}
	readUntil(t, br, "event: next\ndata: {\"id\":\"q\",\"payload\":{\"data\":{\"messages\":[]}}}\n\nevent: complete\ndata: {\"id\":\"q\"}\n\n")
	m := streamPost(t, srv, "", `{"query":"mutation { postMessage(room: \"r\", author: \"a\", text: \"hello\") { id } }"}`)
	if m.StatusCode != 200 {
		t.Fatalf("mutation: %d", m.StatusCode)
	}
	readUntil(t, br, "event: next\ndata: {\"id\":\"op1\",\"payload\":{\"data\":{\"messageAdded\":{\"text\":\"hello\"}}}}\n\n")
	del, _ := http.NewRequest(http.MethodDelete, srv.URL+"/graphql?operationId=op1", nil)
	del.Header.Set("X-GraphQL-Event-Stream-Token", token)
	dr, err := http.DefaultClient.Do(del)
	if err != nil || dr.StatusCode != 200 {
		t.Fatalf("delete: %v %v", err, dr)
	}
	dr.Body.Close()
}

func TestSSEUnknownToken(t *testing.T) {
	srv, _ := chatServer(t, graft.Config{})
	resp := streamPost(t, srv, "", `{"query":"{ messages(room: \"r\") { id } }","extensions":{"operationId":"x"}}`,
		"X-GraphQL-Event-Stream-Token", "nope")
	if resp.StatusCode != 404 {
		t.Fatalf("status %d", resp.StatusCode)
	}
}

func TestMultipart(t *testing.T) {
	srv, r := chatServer(t, graft.Config{})
	for _, accept := range []string{
		`multipart/mixed;subscriptionSpec="1.0",application/json`,
		`multipart/mixed;boundary="graphql";subscriptionSpec=1.0,application/json`,
	} {
		t.Run(accept, func(t *testing.T) {
			resp := streamPost(t, srv, accept, `{"query":"subscription { messageAdded(room: \"m\") { text } }"}`)
			if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != `multipart/mixed;boundary="graphql";subscriptionSpec="1.0"` {
				t.Fatalf("status %d content type %q", resp.StatusCode, ct)
			}
			br := bufio.NewReader(resp.Body)
			// The first chunk arrives with the headers, before any event.
			readUntil(t, br, "\r\n--graphql")
			streamPost(t, srv, "", `{"query":"mutation { postMessage(room: \"m\", author: \"a\", text: \"hi\") { id } }"}`)
			// The part's closing delimiter comes with the part.
			got := readUntil(t, br, "\r\n--graphql")
			want := "\r\ncontent-type: application/json; charset=utf-8\r\n\r\n{\"payload\":{\"data\":{\"messageAdded\":{\"text\":\"hi\"}}}}\r\n--graphql"
			if got != want {
				t.Fatalf("\n got %q\nwant %q", got, want)
			}
		})
	}
	t.Run("shutdown ends the stream", func(t *testing.T) {
		resp := streamPost(t, srv, `multipart/mixed;subscriptionSpec="1.0"`, `{"query":"subscription { messageAdded(room: \"z\") { text } }"}`)
		br := bufio.NewReader(resp.Body)
		readUntil(t, br, "\r\n--graphql")
		r.CloseSubscriptions()
		rest, _ := io.ReadAll(br)
		if string(rest) != "--\r\n" {
			t.Fatalf("got %q, want the closing delimiter", rest)
		}
	})
}

func TestMultipartErrorsBeforeTheStream(t *testing.T) {
	srv, _ := chatServer(t, graft.Config{})
	// Apollo Client 3's header: the client accepts application/json.
	resp := streamPost(t, srv, `multipart/mixed;boundary=graphql;subscriptionSpec=1.0,application/json`, `{"query":"subscription { nope }"}`)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 400 || resp.Header.Get("Content-Type") != "application/json; charset=utf-8" ||
		!strings.Contains(string(body), "GRAPHQL_VALIDATION_FAILED") {
		t.Fatalf("status %d %q %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}

func TestMultipartHeartbeat(t *testing.T) {
	srv, _ := chatServer(t, graft.Config{Subscriptions: graft.SubscriptionConfig{KeepAlive: 5e6}})
	base := runtime.NumGoroutine()
	resp := streamPost(t, srv, `multipart/mixed;subscriptionSpec="1.0"`, `{"query":"subscription { messageAdded(room: \"h\") { text } }"}`)
	br := bufio.NewReader(resp.Body)
	readUntil(t, br, "\r\n--graphql")
	got := readUntil(t, br, "\r\n--graphql")
	if got != "\r\ncontent-type: application/json; charset=utf-8\r\n\r\n{}\r\n--graphql" {
		t.Fatalf("heartbeat %q", got)
	}
	resp.Body.Close()
	http.DefaultClient.CloseIdleConnections()
	waitGoroutines(t, base)
}

// TestSSESingleConnectionByteBudget holds a single-connection stream that
// reads nothing and posts 32 KiB messages to its subscription: once the
// socket buffers are full, what waits for the stream passes its 64 KiB
// budget well before its 256 messages, and the stream is disconnected
// (its subscription ends). The write timeout is long so that it is the
// budget that acts.
func TestSSESingleConnectionByteBudget(t *testing.T) {
	srv, _, ps := chatServerPS(t, graft.Config{Subscriptions: graft.SubscriptionConfig{
		StreamBufferBytes: 64 << 10, WriteTimeout: time.Minute}})
	body, tok := openSingleConnectionStream(t, srv)
	defer body.Close()
	op := streamPost(t, srv, "", `{"query":"subscription { messageAdded(room: \"budget\") { text } }","extensions":{"operationId":"op"}}`,
		"X-GraphQL-Event-Stream-Token", tok)
	if op.StatusCode != http.StatusAccepted {
		t.Fatalf("operation: %d", op.StatusCode)
	}
	waitSubscribers(t, ps, "chat:budget", 1)
	text := strings.Repeat("x", 32<<10)
	for i := 0; ps.Subscribers("chat:budget") > 0; i++ {
		// 200 messages are 6.4 MB: more than the socket buffers and the
		// budget together, far less than them and 256 messages.
		if i == 200 {
			t.Fatal("the stream was never disconnected")
		}
		r := streamPost(t, srv, "", `{"query":"mutation { postMessage(room: \"budget\", author: \"a\", text: \"`+text+`\") { id } }"}`)
		_ = r.Body.Close()
	}
	waitSubscribers(t, ps, "chat:budget", 0)
}

// openSingleConnectionStream reserves a graphql-sse single-connection
// stream on srv (PUT) and opens it (GET with the token), returning the
// stream's body and the token its operations carry.
func openSingleConnectionStream(t *testing.T, srv *httptest.Server) (stream io.ReadCloser, token string) {
	t.Helper()
	token = reserveSingleConnection(t, srv)
	get, _ := http.NewRequest(http.MethodGet, srv.URL+"/graphql?token="+token, nil)
	get.Header.Set("Accept", "text/event-stream")
	s, err := http.DefaultClient.Do(get)
	if err != nil {
		t.Fatal(err)
	}
	return s.Body, token
}

// reserveSingleConnection reserves a graphql-sse single-connection
// stream on srv (PUT) and returns its token: a 201 with a token, or the
// test fails.
func reserveSingleConnection(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPut, srv.URL+"/graphql", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	tok, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated || len(tok) == 0 {
		t.Fatalf("reservation: %d %q", resp.StatusCode, tok)
	}
	return string(tok)
}
