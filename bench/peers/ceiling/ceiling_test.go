package ceiling

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/workload"
)

// TestHandlerMatchesBodyBytes: the true ceiling answers the exact bodies
// the load generator sends and nothing else, not even the same request
// spelled with other whitespace.
func TestHandlerMatchesBodyBytes(t *testing.T) {
	d := data.Shared()
	want, err := Expected(d)
	if err != nil {
		t.Fatal(err)
	}
	h, err := Handler(d)
	if err != nil {
		t.Fatal(err)
	}
	post := func(body []byte) (int, []byte) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body)))
		b, _ := io.ReadAll(rec.Body)
		return rec.Code, b
	}
	for _, q := range workload.All() {
		for _, body := range [][]byte{q.Body(), q.RegisterBody()} {
			// Twice: the second read reuses a pooled buffer.
			for range 2 {
				if code, got := post(body); code != http.StatusOK || !bytes.Equal(got, want[q.Base]) {
					t.Errorf("%s: status %d, body %.80s", q.Name, code, got)
				}
			}
		}
	}
	q1 := workload.Queries()[0]
	for _, body := range []string{"", "{}", " " + string(q1.Body()), strings.Replace(string(q1.Body()), ":", ": ", 1)} {
		if code, _ := post([]byte(body)); code != http.StatusBadRequest {
			t.Errorf("body %q: status %d, want 400", body, code)
		}
	}
	// A large body is read whole (the buffer grows) and refused.
	if code, _ := post(bytes.Repeat([]byte("x"), 100_000)); code != http.StatusBadRequest {
		t.Errorf("large body: status %d, want 400", code)
	}
}
