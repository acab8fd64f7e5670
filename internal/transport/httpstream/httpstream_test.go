package httpstream

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/graftgql/graft/internal/httpapi"
)

func TestMatch(t *testing.T) {
	cases := []struct {
		accept []string
		want   *Format
	}{
		{[]string{"text/event-stream"}, &SSE},
		{[]string{"application/json, Text/Event-Stream;q=0.9"}, &SSE},
		{[]string{`multipart/mixed;subscriptionSpec="1.0", application/json`}, &Multipart},
		{[]string{"multipart/mixed; subscriptionSpec=1.0"}, &Multipart},
		{[]string{"multipart/mixed"}, &Incremental2022},
		{[]string{"multipart/mixed;incrementalSpec=v0.2,application/json"}, &Incremental},
		{[]string{`multipart/mixed; incrementalSpec="v0.2"`}, &Incremental},
		{[]string{"multipart/mixed;deferSpec=20220824, application/json"}, &Incremental2022},
		{[]string{"application/json, multipart/mixed;deferSpec=20220824"}, &Incremental2022},
		{[]string{"multipart/mixed;incrementalSpec=v9"}, nil},
		{[]string{"application/json"}, nil},
		{nil, nil},
	}
	for _, c := range cases {
		if got := Match(c.accept); got != c.want {
			t.Errorf("Match(%q) = %v, want %v", c.accept, got, c.want)
		}
	}
}

func TestFormatsFrameAPayload(t *testing.T) {
	join := func(chunks [][]byte) string {
		var s string
		for _, c := range chunks {
			s += string(c)
		}
		return s
	}
	if got := join(SSE.Payload([]byte(`{"data":1}`))); got != "event: next\ndata: {\"data\":1}\n\n" {
		t.Errorf("SSE payload %q", got)
	}
	if got := join(Multipart.Payload([]byte(`{"data":1}`))); got != "\r\ncontent-type: application/json; charset=utf-8\r\n\r\n{\"payload\":{\"data\":1}}\r\n--graphql" {
		t.Errorf("multipart payload %q", got)
	}
	for _, f := range []*Format{&Incremental, &Incremental2022} {
		if got := string(f.Open) + join(f.Payload([]byte(`{"data":1}`))) + string(f.Complete); got != "\r\n---\r\ncontent-type: application/json; charset=utf-8\r\n\r\n{\"data\":1}\r\n-----\r\n" {
			t.Errorf("%s payload %q", f.ContentType, got)
		}
	}
}

// Detach takes an HTTP/1.1 stream over and frames it in chunked
// encoding, ended by the last chunk; an HTTP/1.0 request (no chunked
// encoding), or one whose writer cannot hijack, is left to net/http.
func TestDetach(t *testing.T) {
	taken := make(chan bool, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("X-Request-Id", "r1")
		d := Detach(w, req, &httpapi.Response{Status: 200, ContentType: SSE.ContentType}, time.Second)
		taken <- d != nil
		if d == nil {
			w.WriteHeader(http.StatusTeapot)
			return
		}
		_ = d.Write(SSE.Open)
		_ = d.Write(SSE.Payload([]byte(`{"data":1}`))...)
		d.Close(true)
	}))
	defer srv.Close()
	get := func(proto string) string {
		c, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, err := c.Write([]byte("GET / " + proto + "\r\nHost: x\r\n\r\n")); err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(c)
		return string(b)
	}
	got := get("HTTP/1.1")
	if !<-taken {
		if runtime.GOOS == "linux" {
			t.Fatal("an HTTP/1.1 stream was not taken over on Linux")
		}
		t.Skip("no poller on " + runtime.GOOS)
	}
	for _, want := range []string{"HTTP/1.1 200 OK\r\n", "Content-Type: text/event-stream; charset=utf-8\r\n",
		"Transfer-Encoding: chunked\r\n", "Connection: close\r\n", "X-Request-Id: r1\r\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("head lacks %q:\n%s", want, got)
		}
	}
	if body := got[strings.Index(got, "\r\n\r\n")+4:]; body != "3\r\n:\n\n\r\n1e\r\nevent: next\ndata: {\"data\":1}\n\n\r\n0\r\n\r\n" {
		t.Errorf("body %q", body)
	}
	if got := get("HTTP/1.0"); <-taken || !strings.HasPrefix(got, "HTTP/1.0 418") {
		t.Errorf("an HTTP/1.0 request was taken over: %q", got)
	}
	if d := Detach(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil), &httpapi.Response{Status: 200}, time.Second); d != nil {
		t.Error("a writer that cannot hijack was taken over")
	}
}
