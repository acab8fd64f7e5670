package ws

import "testing"

func TestWSHeaderGet(t *testing.T) {
	h := newWSHeader(map[string][]string{
		"Authorization":     {"Bearer a:b"},
		"X-Many":            {"first", "second"},
		"X-Empty":           {""},
		"Sec-Websocket-Key": {"dGhlIHNhbXBsZSBub25jZQ=="},
		"Upgrade":           {"websocket"},
		"Connection":        {"Upgrade"},
	})
	for name, want := range map[string]string{
		"Authorization": "Bearer a:b", "AUTHORIZATION": "Bearer a:b", "x-many": "first",
		"X-Empty": "", "Sec-WebSocket-Key": "", "Upgrade": "", "connection": "", "X-Missing": "", "": "",
	} {
		if got := h.Get(name); got != want {
			t.Errorf("Get(%q) = %q, want %q", name, got, want)
		}
	}
}
