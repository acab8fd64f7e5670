package graphiql

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// endpointLiteral returns the JavaScript literal the page assigns to the
// endpoint variable.
func endpointLiteral(t *testing.T, page string) string {
	t.Helper()
	const marker = "var endpoint = "
	i := strings.Index(page, marker)
	if i < 0 {
		t.Fatalf("page has no %q", marker)
	}
	rest := page[i+len(marker):]
	j := strings.Index(rest, ";\n")
	if j < 0 {
		t.Fatalf("endpoint assignment is not terminated")
	}
	return rest[:j]
}

func TestRenderEscapesEndpoint(t *testing.T) {
	tests := []struct {
		name     string
		endpoint string
	}{
		{"plain path", "/graphql"},
		{"absolute URL with query", "https://api.example.com/graphql?a=1&b=2"},
		{"closing script tag", "</script><script>alert(1)</script>"},
		{"closing script tag mixed case", "</ScRiPt >alert(1)"},
		{"double quotes", `"; alert(1); var x = "`},
		{"single quotes", `'; alert(1); '`},
		{"backslash before quote", `\"; alert(1); //`},
		{"html comment opener", "<!-- <script>"},
		{"line separators", "a\u2028b\u2029c"},
		{"newlines", "a\nb\r\nc"},
		{"ampersand entity", "&lt;/script&gt;"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := Render(Options{Endpoint: tt.endpoint})
			if err != nil {
				t.Fatalf("Render: %v", err)
			}
			page := string(b)
			lit := endpointLiteral(t, page)
			for _, bad := range []string{"<", ">", "&", "\u2028", "\u2029", "\n", "\r"} {
				if strings.Contains(lit, bad) {
					t.Errorf("endpoint literal %s contains raw %q", lit, bad)
				}
			}
			var got string
			if err := json.Unmarshal([]byte(lit), &got); err != nil {
				t.Fatalf("endpoint literal %s is not one JSON string: %v", lit, err)
			}
			if got != tt.endpoint {
				t.Errorf("endpoint decodes to %q, want %q", got, tt.endpoint)
			}
			wantScripts := countScripts() + 1
			if n := strings.Count(strings.ToLower(page), "</script"); n != wantScripts {
				t.Errorf("page has %d </script, want %d", n, wantScripts)
			}
			if n := strings.Count(strings.ToLower(page), "<script"); n != wantScripts {
				t.Errorf("page has %d <script, want %d", n, wantScripts)
			}
		})
	}
}

func countScripts() int {
	n := 0
	for _, a := range Assets {
		if a.Kind == Script {
			n++
		}
	}
	return n
}

func TestRenderDefaults(t *testing.T) {
	b, err := Render(Options{})
	if err != nil {
		t.Fatalf("Render: %v", err)
	}
	page := string(b)
	if got := endpointLiteral(t, page); got != `"/graphql"` {
		t.Errorf("endpoint = %s, want \"/graphql\"", got)
	}
	if !strings.Contains(page, "<title>GraphiQL</title>") {
		t.Errorf("page has no default title")
	}
	for _, a := range Assets {
		want := `="` + DefaultCDN + "/" + a.Package + "@" + a.Version + "/" + a.File + `" integrity="` + a.Integrity + `" crossorigin="anonymous"`
		if !strings.Contains(page, want) {
			t.Errorf("page does not load %s/%s from the CDN with its integrity: want %s", a.Package, a.File, want)
		}
	}
}

func TestRenderAssetBaseURL(t *testing.T) {
	tests := []struct {
		base string
		want string // prefix of every asset URL
	}{
		{"/static/npm", "/static/npm/"},
		{"/static/npm/", "/static/npm/"},
		{"https://assets.example.com/npm", "https://assets.example.com/npm/"},
		{"http://127.0.0.1:8080/", "http://127.0.0.1:8080/"},
	}
	for _, tt := range tests {
		t.Run(tt.base, func(t *testing.T) {
			b, err := Render(Options{AssetBaseURL: tt.base})
			if err != nil {
				t.Fatalf("Render: %v", err)
			}
			page := string(b)
			if strings.Contains(page, DefaultCDN) {
				t.Errorf("page still refers to the CDN")
			}
			for _, a := range Assets {
				want := `="` + tt.want + a.Package + "/" + a.File + `" integrity="` + a.Integrity + `"`
				if !strings.Contains(page, want) {
					t.Errorf("page lacks %s", want)
				}
			}
		})
	}
}

func TestRenderRejectsBadAssetBaseURL(t *testing.T) {
	for _, base := range []string{
		"javascript:alert(1)",
		"ftp://example.com/npm",
		"static/npm",
		"//evil.example.com/npm",
		"https://",
		"https://example.com/npm?v=1",
		"https://example.com/npm#x",
		"http://[::1",
	} {
		t.Run(base, func(t *testing.T) {
			_, err := Render(Options{AssetBaseURL: base})
			if err == nil {
				t.Fatalf("Render accepted asset base URL %q", base)
			}
			if !strings.HasPrefix(err.Error(), "graphiql: asset base URL ") {
				t.Errorf("error %q does not name the option", err)
			}
		})
	}
}

func TestRenderEscapesTitle(t *testing.T) {
	b, err := Render(Options{Title: `</title><script>alert(1)</script>`})
	if err != nil {
		t.Fatalf("Render: %v", err)
	}
	page := string(b)
	if !strings.Contains(page, "<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>") {
		t.Errorf("title not escaped:\n%s", page)
	}
}

func TestHandler(t *testing.T) {
	h, err := Handler(Options{Endpoint: "/api/graphql"})
	if err != nil {
		t.Fatalf("Handler: %v", err)
	}
	tests := []struct {
		method     string
		wantStatus int
		wantType   string
		wantAllow  string
		wantBody   bool
	}{
		{http.MethodGet, http.StatusOK, ContentType, "", true},
		{http.MethodHead, http.StatusOK, ContentType, "", false},
		{http.MethodPost, http.StatusMethodNotAllowed, "", "GET, HEAD", false},
		{http.MethodDelete, http.StatusMethodNotAllowed, "", "GET, HEAD", false},
	}
	for _, tt := range tests {
		t.Run(tt.method, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(tt.method, "/graphiql", nil))
			if rec.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d", rec.Code, tt.wantStatus)
			}
			if tt.wantType != "" && rec.Header().Get("Content-Type") != tt.wantType {
				t.Errorf("Content-Type = %q, want %q", rec.Header().Get("Content-Type"), tt.wantType)
			}
			if rec.Header().Get("Allow") != tt.wantAllow {
				t.Errorf("Allow = %q, want %q", rec.Header().Get("Allow"), tt.wantAllow)
			}
			hasPage := strings.Contains(rec.Body.String(), `var endpoint = "/api/graphql"`)
			if hasPage != tt.wantBody {
				t.Errorf("body has page = %v, want %v", hasPage, tt.wantBody)
			}
		})
	}
}

func TestHandlerRejectsBadOptions(t *testing.T) {
	if _, err := Handler(Options{AssetBaseURL: "javascript:alert(1)"}); err == nil {
		t.Fatal("Handler accepted a javascript: asset base URL")
	}
}
