package graft_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/graftgql/graft"
)

func TestCORS(t *testing.T) {
	next := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(`{"data":{}}`))
	})
	// preflight builds a preflight as browsers send it: header names
	// lowercased, sorted and comma-separated.
	preflight := func(origin, headers string) *http.Request {
		r := httptest.NewRequest(http.MethodOptions, "/graphql", nil)
		r.Header.Set("Origin", origin)
		r.Header.Set("Access-Control-Request-Method", "POST")
		if headers != "" {
			r.Header.Set("Access-Control-Request-Headers", headers)
		}
		return r
	}
	get := func(origin string) *http.Request {
		r := httptest.NewRequest(http.MethodGet, "/graphql?query={__typename}", nil)
		r.Header.Set("Origin", origin)
		return r
	}
	listed := graft.CORSOptions{AllowedOrigins: []string{"https://app.example.com"}, AllowCredentials: true}

	tests := []struct {
		name        string
		opts        graft.CORSOptions
		req         *http.Request
		wantStatus  int
		wantOrigin  string
		wantHeaders []string // must appear in Access-Control-Allow-Headers
		wantCreds   string
	}{
		{"preflight allows the GraphQL and CSRF headers", graft.CORSOptions{},
			preflight("https://any.example", "authorization,client-require-preflight,content-type"),
			http.StatusNoContent, "*", []string{"content-type", "authorization", "client-require-preflight"}, ""},
		{"preflight allows Apollo's headers", graft.CORSOptions{},
			preflight("https://any.example", "apollo-require-preflight,x-apollo-operation-name"),
			http.StatusNoContent, "*", []string{"apollo-require-preflight", "x-apollo-operation-name"}, ""},
		{"preflight allows graphql-preflight", graft.CORSOptions{},
			preflight("https://any.example", "graphql-preflight"),
			http.StatusNoContent, "*", []string{"graphql-preflight"}, ""},
		{"preflight allows configured headers", graft.CORSOptions{AllowedHeaders: []string{"X-Tenant"}},
			preflight("https://any.example", "x-tenant"), http.StatusNoContent, "*", []string{"x-tenant"}, ""},
		{"preflight refuses an unknown header", graft.CORSOptions{},
			preflight("https://any.example", "x-unknown"), http.StatusNoContent, "", nil, ""},
		{"listed origin is reflected with credentials", listed,
			preflight("https://app.example.com", "content-type"), http.StatusNoContent, "https://app.example.com", nil, "true"},
		{"unlisted origin gets no CORS headers", listed,
			preflight("https://evil.example", "content-type"), http.StatusNoContent, "", nil, ""},
		{"simple request from any origin", graft.CORSOptions{}, get("https://any.example"), http.StatusOK, "*", nil, ""},
		{"simple request from an unlisted origin", listed, get("https://evil.example"), http.StatusOK, "", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			graft.CORS(tt.opts)(next).ServeHTTP(rec, tt.req)
			if rec.Code != tt.wantStatus {
				t.Errorf("status = %d, want %d", rec.Code, tt.wantStatus)
			}
			if got := rec.Header().Get("Access-Control-Allow-Origin"); got != tt.wantOrigin {
				t.Errorf("Allow-Origin = %q, want %q", got, tt.wantOrigin)
			}
			allowed := strings.ToLower(rec.Header().Get("Access-Control-Allow-Headers"))
			for _, h := range tt.wantHeaders {
				if !strings.Contains(allowed, h) {
					t.Errorf("Allow-Headers = %q, want it to include %q", allowed, h)
				}
			}
			if got := rec.Header().Get("Access-Control-Allow-Credentials"); got != tt.wantCreds {
				t.Errorf("Allow-Credentials = %q, want %q", got, tt.wantCreds)
			}
		})
	}
}
