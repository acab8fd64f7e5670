package main

import (
	"bufio"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestDiscardResponseRaw(t *testing.T) {
	tests := []struct {
		name        string
		raw         string
		wantStatus  int
		wantClosing bool
		wantErr     bool
	}{
		{"content length", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", 200, false, false},
		{"chunked with trailer", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n3;x=y\r\nabc\r\n0\r\nX-T: 1\r\n\r\n", 200, false, false},
		{"connection close", "HTTP/1.1 400 Bad Request\r\nConnection: close\r\ncontent-length: 0\r\n\r\n", 400, true, false},
		{"body to the end", "HTTP/1.0 200 OK\r\n\r\nall of it", 200, true, false},
		{"garbage status", "NOPE\r\n\r\n", 0, false, true},
		{"bad length", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", 0, false, true},
		{"truncated body", "HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nshort", 200, false, true},
		{"bad chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 200, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, closing, err := discardResponse(bufio.NewReader(strings.NewReader(tt.raw)))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			if status != tt.wantStatus || closing != tt.wantClosing {
				t.Errorf("status %d closing %v, want %d %v", status, closing, tt.wantStatus, tt.wantClosing)
			}
		})
	}
}

// TestDiscardResponseNetHTTP reads a real server's small (Content-Length)
// and large (chunked) answers on one keep-alive connection, in sequence.
func TestDiscardResponseNetHTTP(t *testing.T) {
	big := strings.Repeat("x", 100_000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/big" {
			_, _ = w.Write([]byte(big))
			return
		}
		_, _ = w.Write([]byte("small"))
	}))
	defer srv.Close()
	c, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	for _, path := range []string{"/big", "/small", "/big", "/small"} {
		req := "GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n"
		if _, err := c.Write([]byte(req)); err != nil {
			t.Fatal(err)
		}
		status, closing, err := discardResponse(br)
		if err != nil || status != 200 || closing {
			t.Fatalf("%s: status %d closing %v err %v", path, status, closing, err)
		}
	}
	if br.Buffered() != 0 {
		t.Errorf("%d bytes left unread", br.Buffered())
	}
}
