package graft_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/graftgql/graft"
)

// TestWebSocketCSRF opens WebSocket upgrades as a page on another site
// would, carrying the user's cookie, to a router with CSRF prevention on:
// refused (403 CSRF_PREVENTION_BLOCKED) unless the origin is listed by
// name, whatever the wildcards, as a simple cross-site POST is refused;
// the same page's POST of the mutation is the reference. Upgrades without
// cookies, from the server's own origin or from non-browser clients (no
// Origin) go through.
func TestWebSocketCSRF(t *testing.T) {
	for _, tc := range []struct {
		name     string
		csrf     bool
		patterns []string
		origin   string
		cookie   bool
		refused  bool
	}{
		{"another site with a cookie, patterns *", true, []string{"*"}, "https://evil.example", true, true},
		{"Origin null with a cookie", true, []string{"*"}, "null", true, true},
		{"another site matched by a wildcard", true, []string{"*.example"}, "https://evil.example", true, true},
		{"another site listed by name", true, []string{"evil.example"}, "https://evil.example", true, false},
		{"another site listed by origin", true, []string{"https://evil.example"}, "https://evil.example", true, false},
		{"another site without cookies", true, []string{"*"}, "https://evil.example", false, false},
		{"the server's own origin", true, nil, "", true, false},
		{"no Origin: not a browser", true, nil, "-", true, false},
		{"CSRF prevention off", false, []string{"*"}, "https://evil.example", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := graft.Config{Logger: quietLogger, Subscriptions: graft.SubscriptionConfig{OriginPatterns: tc.patterns}}
			if tc.csrf {
				cfg.CSRF = &graft.CSRFConfig{}
			}
			r := newTestRouter(t, cfg)
			srv := httptest.NewServer(r)
			t.Cleanup(srv.Close)
			h := http.Header{}
			switch tc.origin {
			case "":
				h.Set("Origin", srv.URL)
			case "-":
			default:
				h.Set("Origin", tc.origin)
			}
			if tc.cookie {
				h.Set("Cookie", "session=s3cret")
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			c, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/graphql",
				&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}, HTTPHeader: h})
			if tc.refused {
				if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
					t.Fatalf("upgrade went through: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("upgrade refused: %v", err)
			}
			defer c.CloseNow()
			w := &wsClient{t: t, c: c}
			w.init()
			w.send(`{"id":"1","type":"subscribe","payload":{"query":"mutation { rename(name: \"x\") }"}}`)
			if got := w.read(); !strings.Contains(got, `"rename":"x"`) {
				t.Fatalf("mutation: %s", got)
			}
		})
	}
	// The reference: the same page's simple POST is refused.
	r := newTestRouter(t, graft.Config{CSRF: &graft.CSRFConfig{}})
	got := send(t, r, "POST", "/graphql", `{"query":"mutation { rename(name: \"x\") }"}`, "Content-Type", "text/plain", "Origin", "https://evil.example", "Cookie", "session=s3cret")
	if got.status != 400 || got.code(0) != "CSRF_PREVENTION_BLOCKED" {
		t.Fatalf("cross-site text/plain POST: %d %s", got.status, got.raw)
	}
}
