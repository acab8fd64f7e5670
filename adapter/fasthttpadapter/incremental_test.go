package fasthttpadapter_test

import (
	"io"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/incremental"
)

func TestIncrementalOverFasthttp(t *testing.T) {
	s, err := incremental.Schema()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	c := inMemoryClient(t, r)
	q := `{"query":"{ fastField item(id: \"1\") { id ... @defer(label: \"D\") { slowField } } }"}`
	head := "\r\ncontent-type: application/json; charset=utf-8\r\n\r\n"
	tests := []struct{ accept, contentType, body string }{
		{"multipart/mixed;incrementalSpec=v0.2", `multipart/mixed;boundary="-";incrementalSpec=v0.2`, "\r\n---" +
			head + `{"data":{"fastField":"fast","item":{"id":"1"}},"pending":[{"id":"0","path":["item"],"label":"D"}],"hasNext":true}` + "\r\n---" +
			head + `{"incremental":[{"data":{"slowField":"slow 1"},"id":"0"}],"completed":[{"id":"0"}],"hasNext":false}` + "\r\n-----\r\n"},
		{"multipart/mixed;deferSpec=20220824", `multipart/mixed;boundary="-";deferSpec=20220824`, "\r\n---" +
			head + `{"data":{"fastField":"fast","item":{"id":"1"}},"hasNext":true}` + "\r\n---" +
			head + `{"incremental":[{"data":{"slowField":"slow 1"},"path":["item"],"label":"D"}],"hasNext":false}` + "\r\n-----\r\n"},
		{"text/event-stream", "text/event-stream; charset=utf-8", ":\n\nevent: next\ndata: " +
			`{"data":{"fastField":"fast","item":{"id":"1"}},"hasNext":true}` + "\n\nevent: next\ndata: " +
			`{"incremental":[{"data":{"slowField":"slow 1"},"path":["item"],"label":"D"}],"hasNext":false}` + "\n\nevent: complete\ndata: \n\n"},
	}
	for _, tc := range tests {
		resp := post(t, c, tc.accept, q)
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != tc.contentType || string(body) != tc.body {
			t.Errorf("%s: %d %s\n%q\nwant %q", tc.accept, resp.StatusCode, resp.Header.Get("Content-Type"), body, tc.body)
		}
	}
}
