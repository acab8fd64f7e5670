package bodylimit

import (
	"net/http"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		limit     int64
		wantBody  string
		wantLarge bool
	}{
		{"under the limit", "abc", 4, "abc", false},
		{"at the limit", "abcd", 4, "abcd", false},
		{"over the limit", "abcde", 4, "", true},
		{"empty", "", 4, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, large, err := Read(strings.NewReader(tt.body), tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			if string(body) != tt.wantBody || large != tt.wantLarge {
				t.Errorf("Read = %q, %v; want %q, %v", body, large, tt.wantBody, tt.wantLarge)
			}
		})
	}
}

func TestTooLarge(t *testing.T) {
	resp := TooLarge(10)
	if resp.Status != http.StatusRequestEntityTooLarge {
		t.Errorf("status = %d", resp.Status)
	}
	if !strings.Contains(string(resp.Body), `"code":"PAYLOAD_TOO_LARGE"`) || !strings.Contains(string(resp.Body), "10 bytes") {
		t.Errorf("body = %s", resp.Body)
	}
}

// unreadable fails the test if anything reads it.
type unreadable struct{ t *testing.T }

func (u unreadable) Read([]byte) (int, error) {
	u.t.Fatal("the body was read although Content-Length was over the limit")
	return 0, nil
}

func TestReadIntoRefusesAnnouncedLengthWithoutReading(t *testing.T) {
	if _, tooLarge, err := ReadInto(nil, unreadable{t}, 5, 4); !tooLarge || err != nil {
		t.Fatalf("tooLarge = %v, err = %v", tooLarge, err)
	}
	buf := make([]byte, 0, 2)
	body, tooLarge, err := ReadInto(buf, strings.NewReader("abcd"), 4, 4)
	if string(body) != "abcd" || tooLarge || err != nil {
		t.Fatalf("got %q, %v, %v", body, tooLarge, err)
	}
}
