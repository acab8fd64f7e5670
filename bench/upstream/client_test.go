package upstream

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestClientGetReadsEveryFraming checks Get on an answer with
// Content-Length, one without (chunked), and one shorter than its
// Content-Length, which must be an error, not a short body.
func TestClientGetReadsEveryFraming(t *testing.T) {
	body := strings.Repeat(`{"id":"a1"},`, 5000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/sized":
			w.Header().Set("Content-Length", "60000")
			_, _ = w.Write([]byte(body))
		case "/chunked":
			for i := 0; i < len(body); i += 1000 {
				_, _ = w.Write([]byte(body[i:min(i+1000, len(body))]))
				w.(http.Flusher).Flush()
			}
		case "/short":
			w.Header().Set("Content-Length", "60000")
			_, _ = w.Write([]byte(body[:100]))
		}
	}))
	defer srv.Close()
	c := NewClient(srv.URL)
	ctx := context.Background()
	for _, path := range []string{"/sized", "/chunked"} {
		got, err := c.Get(ctx, path, nil)
		if err != nil || string(got) != body {
			t.Errorf("Get %s: %d bytes, %v; want the %d-byte body", path, len(got), err, len(body))
		}
	}
	if got, err := c.Get(ctx, "/short", nil); err == nil {
		t.Errorf("Get /short: %d bytes and no error", len(got))
	}
}
