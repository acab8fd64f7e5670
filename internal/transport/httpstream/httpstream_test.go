package httpstream

import "testing"

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
