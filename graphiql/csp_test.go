package graphiql

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// inlineScript returns the content of the page's one script element
// without a src attribute.
func inlineScript(t *testing.T, page string) string {
	t.Helper()
	m := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindAllStringSubmatch(page, -1)
	if len(m) != 1 {
		t.Fatalf("page has %d inline scripts, want 1", len(m))
	}
	return m[0][1]
}

func directives(csp string) map[string]string {
	out := map[string]string{}
	for d := range strings.SplitSeq(csp, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		out[name] = value
	}
	return out
}

func TestPageHeaders(t *testing.T) {
	tests := []struct {
		name   string
		opts   Options
		assets string
		conn   string
		frame  string
	}{
		{"CDN", Options{}, "https://cdn.jsdelivr.net/npm/", "'self'", "'none'"},
		{"self-hosted path", Options{AssetBaseURL: "/static/npm/"}, "'self'", "'self'", "'none'"},
		{"own asset host", Options{AssetBaseURL: "https://assets.example.com/npm"}, "https://assets.example.com/npm/", "'self'", "'none'"},
		{"absolute endpoint, framing allowed", Options{Endpoint: "https://api.example.com/graphql?x=1", FrameAncestors: "'self'"},
			"https://cdn.jsdelivr.net/npm/", "https://api.example.com", "'self'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := NewPage(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			rec := httptest.NewRecorder()
			p.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/graphiql", nil))
			h := rec.Header()
			if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Cache-Control") != "no-cache" || h.Get("Content-Type") != ContentType {
				t.Fatalf("headers = %v", h)
			}
			sum := sha256.Sum256([]byte(inlineScript(t, rec.Body.String())))
			hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
			d := directives(h.Get("Content-Security-Policy"))
			want := map[string]string{
				"default-src":     "'none'",
				"script-src":      tt.assets + " " + hash,
				"style-src":       tt.assets + " 'unsafe-inline'",
				"img-src":         tt.assets + " data:",
				"font-src":        tt.assets + " data:",
				"connect-src":     tt.conn,
				"base-uri":        "'none'",
				"form-action":     "'none'",
				"frame-ancestors": tt.frame,
			}
			if len(d) != len(want) {
				t.Errorf("policy %q has %d directives, want %d", h.Get("Content-Security-Policy"), len(d), len(want))
			}
			for k, v := range want {
				if d[k] != v {
					t.Errorf("%s = %q, want %q", k, d[k], v)
				}
			}
		})
	}
}
