package sse

import (
	"net/http/httptest"
	"testing"
)

func TestMatch(t *testing.T) {
	on, off := New(Config{Reservations: true}, nil, nil), New(Config{}, nil, nil)
	cases := []struct {
		method, target, token, accept string
		on, off                       bool
	}{
		{"PUT", "/graphql", "", "", true, false},
		{"POST", "/graphql", "t", "", true, true},
		{"GET", "/graphql?token=t", "", "text/event-stream", true, true},
		{"GET", "/graphql?token=t", "", "application/json", false, false},
		{"POST", "/graphql", "", "text/event-stream", false, false},
	}
	for _, c := range cases {
		req := httptest.NewRequest(c.method, c.target, nil)
		if c.token != "" {
			req.Header.Set(TokenHeader, c.token)
		}
		if c.accept != "" {
			req.Header.Set("Accept", c.accept)
		}
		if on.Match(req) != c.on || off.Match(req) != c.off {
			t.Errorf("%s %s token %q accept %q: %v %v, want %v %v", c.method, c.target, c.token, c.accept,
				on.Match(req), off.Match(req), c.on, c.off)
		}
	}
}

func TestMessage(t *testing.T) {
	if got := string(sseMessage(sseNext, []byte(`"a"`), []byte(`{"data":1}`))); got != "event: next\ndata: {\"id\":\"a\",\"payload\":{\"data\":1}}\n\n" {
		t.Errorf("next %q", got)
	}
	if got := string(sseMessage(sseCompleteHead, []byte(`"a"`), nil)); got != "event: complete\ndata: {\"id\":\"a\"}\n\n" {
		t.Errorf("complete %q", got)
	}
}
