package httpapi

import (
	"net/http"
	"testing"
)

// TestPolicyTables is each status-code policy's table, failure by failure
// and media type by media type.
func TestPolicyTables(t *testing.T) {
	failures := []Failure{Unparsable, Malformed, ParseFailed, Invalid, LimitExceeded, NoOperation, BadVariables, Partial}
	want := map[Policy]map[string][]int{
		PolicyApollo: {
			MediaJSON:            {400, 400, 400, 400, 400, 400, 400, 200},
			MediaGraphQLResponse: {400, 400, 400, 400, 400, 400, 400, 200},
		},
		PolicyLegacy: {
			MediaJSON:            {400, 400, 200, 200, 400, 200, 200, 200},
			MediaGraphQLResponse: {400, 400, 400, 400, 400, 400, 400, 200},
		},
		PolicySpec: {
			MediaJSON:            {400, 400, 200, 200, 200, 200, 200, 200},
			MediaGraphQLResponse: {400, 422, 400, 422, 422, 422, 422, 294},
		},
	}
	for p, byMedia := range want {
		for media, statuses := range byMedia {
			for i, f := range failures {
				if got := p.Status(f, media); got != statuses[i] {
					t.Errorf("policy %d, %s, failure %d: %d, want %d", p, media, f, got, statuses[i])
				}
			}
		}
	}
}

func TestDecodeDocumentID(t *testing.T) {
	for _, body := range []string{`{"documentId":"sha256:abc","variables":{"a":1}}`, `{"documentId":"x:\u0061"}`} {
		req, e := Decode(&RawRequest{Method: http.MethodPost, ContentType: "application/json", Body: []byte(body)})
		if e != nil || req.DocumentID == "" || req.Query != "" {
			t.Errorf("%s: %+v, %v", body, req, e)
		}
	}
	req, e := Decode(&RawRequest{Method: http.MethodGet, RawQuery: "documentId=sha256%3Aabc"})
	if e != nil || req.DocumentID != "sha256:abc" || !req.IsGet {
		t.Errorf("GET: %+v, %v", req, e)
	}
	if _, e := Decode(&RawRequest{Method: http.MethodPost, ContentType: "application/json", Body: []byte(`{"documentId":1}`)}); e == nil || !e.Malformed {
		t.Errorf("documentId of wrong type: %v", e)
	}
}

func TestDecodeBatch(t *testing.T) {
	raw := &RawRequest{Method: http.MethodPost, ContentType: "application/json", Body: []byte(` [{"query":"{ a }"}, 1, {"query":2}]`)}
	if !IsBatch(raw) {
		t.Fatal("IsBatch")
	}
	items, e := DecodeBatch(raw, 3)
	if e != nil || len(items) != 3 || items[0].Err != nil || items[0].Req.Query != "{ a }" || items[1].Err == nil || items[2].Err == nil || !items[2].Err.Malformed {
		t.Fatalf("%+v, %v", items, e)
	}
	for _, tc := range []struct {
		body string
		max  int
	}{{`[{"query":"{ a }"}]`, 0}, {`[{},{}]`, 1}, {`[]`, 2}, {`[{`, 2}} {
		if _, e := DecodeBatch(&RawRequest{Method: http.MethodPost, ContentType: "application/json", Body: []byte(tc.body)}, tc.max); e == nil || e.Status != 400 {
			t.Errorf("%s with max %d: %v", tc.body, tc.max, e)
		}
	}
	if _, e := DecodeBatch(&RawRequest{Method: http.MethodPost, ContentType: "text/plain", Body: []byte(`[{}]`)}, 2); e == nil || e.Status != 415 {
		t.Errorf("text/plain batch: %v", e)
	}
	if IsBatch(&RawRequest{Method: http.MethodGet, Body: []byte(`[`)}) {
		t.Error("a GET is never a batch")
	}
	for body, want := range map[string]bool{
		"": false, " \t\r\n": false, "[": true, "\r\n\t [1]": true, `{"query":"[a]"}`: false,
		"\v[": false, "\u00a0[": false, "x[": false, ` {}[`: false,
	} {
		if got := IsBatch(&RawRequest{Method: http.MethodPost, Body: []byte(body)}); got != want {
			t.Errorf("IsBatch(%q) = %v, want %v", body, got, want)
		}
	}
}
