package httpapi

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/gqlerr"
)

func TestDecodePost(t *testing.T) {
	tests := []struct {
		name       string
		ct         string
		body       string
		want       Request
		wantStatus int
		wantMsg    string
	}{
		{name: "query only", ct: "application/json", body: `{"query":"{ hello }"}`, want: Request{Query: "{ hello }"}},
		{name: "charset parameter", ct: "application/json; charset=UTF-8", body: `{"query":"{a}"}`, want: Request{Query: "{a}"}},
		{name: "all parameters", ct: "application/json", body: `{"query":"q","operationName":"A","variables":{"id":"a1","n":3,"f":1.5,"l":[1,{"x":2}]},"extensions":{"k":true}}`,
			want: Request{Query: "q", OperationName: "A", Variables: map[string]any{"id": "a1", "n": int64(3), "f": 1.5, "l": []any{int64(1), map[string]any{"x": int64(2)}}}, Extensions: map[string]any{"k": true}}},
		{name: "nulls", ct: "application/json", body: `{"query":"q","operationName":null,"variables":null,"extensions":null}`, want: Request{Query: "q"}},
		{name: "no query is decoded", ct: "application/json", body: `{}`, want: Request{}},
		{name: "missing content type", ct: "", body: `{"query":"q"}`, wantStatus: 415, wantMsg: "Missing Content-Type"},
		{name: "text/plain", ct: "text/plain", body: `{"query":"q"}`, wantStatus: 415, wantMsg: "Unsupported Content-Type"},
		{name: "latin-1 charset", ct: "application/json; charset=iso-8859-1", body: `{"query":"q"}`, wantStatus: 415, wantMsg: "Unsupported charset"},
		{name: "empty body", ct: "application/json", body: ``, wantStatus: 400, wantMsg: "empty"},
		{name: "not json", ct: "application/json", body: `query { a }`, wantStatus: 400, wantMsg: "must be a JSON object"},
		{name: "truncated json", ct: "application/json", body: `{"query":"{a}`, wantStatus: 400, wantMsg: "not valid JSON"},
		{name: "array body", ct: "application/json", body: `[{"query":"q"}]`, wantStatus: 400, wantMsg: "must be a JSON object"},
		{name: "query number", ct: "application/json", body: `{"query":1}`, wantStatus: 400, wantMsg: "query parameter must be a string"},
		{name: "query object", ct: "application/json", body: `{"query":{}}`, wantStatus: 400, wantMsg: "query parameter must be a string"},
		{name: "operationName array", ct: "application/json", body: `{"query":"q","operationName":[]}`, wantStatus: 400, wantMsg: "operationName parameter must be a string"},
		{name: "variables string", ct: "application/json", body: `{"query":"q","variables":"{}"}`, wantStatus: 400, wantMsg: "variables parameter must be a JSON object"},
		{name: "variables array", ct: "application/json", body: `{"query":"q","variables":[]}`, wantStatus: 400, wantMsg: "variables parameter must be a JSON object"},
		{name: "extensions number", ct: "application/json", body: `{"query":"q","extensions":3}`, wantStatus: 400, wantMsg: "extensions parameter must be a JSON object"},
		{name: "invalid utf-8 in string", ct: "application/json", body: "{\"query\":\"\xff\"}", want: Request{Query: "\ufffd"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decode(&RawRequest{Method: "POST", ContentType: tc.ct, Body: []byte(tc.body)})
			if tc.wantStatus != 0 {
				if err == nil {
					t.Fatalf("want status %d, got request %+v", tc.wantStatus, got)
				}
				if err.Status != tc.wantStatus || !strings.Contains(err.Err.Message, tc.wantMsg) {
					t.Fatalf("got %d %q, want %d containing %q", err.Status, err.Err.Message, tc.wantStatus, tc.wantMsg)
				}
				if err.Err.Extensions["code"] != gqlerr.BadRequest {
					t.Fatalf("code = %v", err.Err.Extensions["code"])
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error %d %s", err.Status, err.Err.Message)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

func TestDecodeGet(t *testing.T) {
	tests := []struct {
		name       string
		rawQuery   string
		want       Request
		wantStatus int
	}{
		{name: "query", rawQuery: "query=%7B__typename%7D", want: Request{Query: "{__typename}", IsGet: true}},
		{name: "variables and operation", rawQuery: "query=q&operationName=A&variables=%7B%22id%22%3A%22a1%22%7D&extensions=%7B%22a%22%3A1%7D",
			want: Request{Query: "q", OperationName: "A", Variables: map[string]any{"id": "a1"}, Extensions: map[string]any{"a": int64(1)}, IsGet: true}},
		{name: "variables not json", rawQuery: "query=q&variables=nope", wantStatus: 400},
		{name: "variables array", rawQuery: "query=q&variables=%5B%5D", wantStatus: 400},
		{name: "variables trailing data", rawQuery: "query=q&variables=%7B%7D%7B%7D", wantStatus: 400},
		{name: "bad escape", rawQuery: "query=%zz", wantStatus: 400},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decode(&RawRequest{Method: "GET", RawQuery: tc.rawQuery})
			if tc.wantStatus != 0 {
				if err == nil || err.Status != tc.wantStatus {
					t.Fatalf("got %+v, %+v; want status %d", got, err, tc.wantStatus)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error %s", err.Err.Message)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

func TestDecodeOtherMethods(t *testing.T) {
	for _, m := range []string{"PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"} {
		_, err := Decode(&RawRequest{Method: m})
		if err == nil || err.Status != http.StatusMethodNotAllowed || err.Header.Get("Allow") != "GET, POST" {
			t.Errorf("%s: got %+v", m, err)
		}
	}
}

func TestErrorMessagesDoNotEchoUnboundedInput(t *testing.T) {
	ct := "application/" + strings.Repeat("x", 10000)
	_, err := Decode(&RawRequest{Method: "POST", ContentType: ct, Body: []byte(`{}`)})
	if err == nil || len(err.Err.Message) > 300 {
		t.Fatalf("message too long or missing: %v", err)
	}
}
