package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/graftgql/graft/internal/httpapi"
)

// maxFuzzMessage bounds the message of a decoding error: it may quote the
// request, but only a bounded part of it.
const maxFuzzMessage = 1024

// checkDecodeError holds a decoding error to the wire contract: one of
// the statuses Decode documents, a message, a code.
func checkDecodeError(t *testing.T, e *httpapi.Error) {
	t.Helper()
	switch e.Status {
	case http.StatusBadRequest, http.StatusMethodNotAllowed, http.StatusUnsupportedMediaType:
	default:
		t.Fatalf("status %d for %q", e.Status, e.Err.Message)
	}
	if e.Err == nil || e.Err.Message == "" || len(e.Err.Message) > maxFuzzMessage {
		t.Fatalf("bad error message: %+v", e.Err)
	}
	if code, _ := e.Err.Extensions["code"].(string); code == "" {
		t.Fatalf("error without extensions.code: %q", e.Err.Message)
	}
	if e.Status == http.StatusMethodNotAllowed && e.Header.Get("Allow") == "" {
		t.Fatal("405 without Allow")
	}
	if out := gqlerr.AppendResponse(nil, gqlerror.List{e.Err}, nil); len(out) == 0 || out[0] != '{' {
		t.Fatalf("AppendResponse wrote %q", out)
	}
}

func FuzzDecodePost(f *testing.F) {
	f.Add([]byte(`{"query":"{ hello }"}`), "application/json")
	f.Add([]byte(`{"query":"query($n: Int) { a(n: $n) }","variables":{"n":2147483648},"operationName":null}`), "application/json; charset=utf-8")
	f.Add([]byte(`{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"abc"}}}`), "application/json;charset=UTF-8")
	f.Add([]byte(`{"query":"{ hello }","variables":"{}"}`), "application/json")
	f.Add([]byte(`[{"query":"{ hello }"}]`), "application/json")
	f.Add([]byte("{\"query\":\"\xff\"}"), "text/plain")
	f.Add([]byte(`{"variables":{"a":[[[[{"b":1e400}]]]]}}`), "application/json; charset=latin1")
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		req, e := httpapi.Decode(&httpapi.RawRequest{Method: http.MethodPost, Path: "/graphql", ContentType: contentType, Body: body})
		if e != nil {
			checkDecodeError(t, e)
			return
		}
		if req.IsGet {
			t.Fatal("a POST decoded as GET")
		}
	})
}

func FuzzDecodeGet(f *testing.F) {
	f.Add("query=%7B+hello+%7D")
	f.Add("query=%7Bhello%7D&variables=%7B%22a%22%3A1%7D&operationName=A")
	f.Add("extensions=%7B%22persistedQuery%22%3A%7B%22version%22%3A1%2C%22sha256Hash%22%3A%22ab%22%7D%7D")
	f.Add("query=%zz")
	f.Add("variables=[1]&extensions=null")
	f.Add("query=a&query=b;c=d")
	f.Fuzz(func(t *testing.T, rawQuery string) {
		req, e := httpapi.Decode(&httpapi.RawRequest{Method: http.MethodGet, Path: "/graphql", RawQuery: rawQuery})
		if e != nil {
			checkDecodeError(t, e)
			return
		}
		if !req.IsGet {
			t.Fatal("a GET decoded as POST")
		}
	})
}

func FuzzNegotiate(f *testing.F) {
	f.Add("application/graphql-response+json, application/json;q=0.9")
	f.Add("*/*")
	f.Add("text/html")
	f.Add(`application/json; q="; charset=`)
	f.Add("application/json;q=1e400, application/*;q=0.1;charset=utf-16")
	f.Fuzz(func(t *testing.T, accept string) {
		mt, ok := httpapi.Negotiate(accept)
		if !ok {
			return
		}
		if mt != httpapi.MediaJSON && mt != httpapi.MediaGraphQLResponse {
			t.Fatalf("Negotiate(%q) = %q", accept, mt)
		}
	})
}
