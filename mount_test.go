package graft_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/graftgql/graft"
)

// TestMountUnderPrefix mounts the router under /api in net/http's ServeMux
// and in chi, beside health routes and with a route registered after it,
// and checks every route answers.
func TestMountUnderPrefix(t *testing.T) {
	router := serveTestRouter(t, graft.NewLayer(), graft.Config{}, nil, nil)
	after := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, "after")
	})

	mux := http.NewServeMux()
	mux.Handle("GET /health", graft.Health())
	mux.Handle("/api/", http.StripPrefix("/api", router))
	mux.Handle("GET /after", after)

	r := chi.NewRouter()
	r.Method(http.MethodGet, "/health", graft.Health())
	r.Mount("/api", http.StripPrefix("/api", router))
	r.Get("/after", after)

	for name, h := range map[string]http.Handler{"ServeMux": mux, "chi": r} {
		tests := []struct {
			name, method, target, body string
			wantStatus                 int
			wantInBody                 string
		}{
			{"POST under the prefix", http.MethodPost, "/api/graphql", `{"query":"{ hello }"}`, 200, `"hello":"world"`},
			{"GET under the prefix", http.MethodGet, "/api/graphql?query=%7Bhello%7D", "", 200, `"hello":"world"`},
			{"health beside it", http.MethodGet, "/health", "", 200, `"ok"`},
			{"route registered after it", http.MethodGet, "/after", "", 200, "after"},
			{"unprefixed path is not the router", http.MethodPost, "/graphql", `{"query":"{ hello }"}`, 404, ""},
		}
		for _, tt := range tests {
			t.Run(name+"/"+tt.name, func(t *testing.T) {
				req := httptest.NewRequest(tt.method, tt.target, strings.NewReader(tt.body))
				if tt.body != "" {
					req.Header.Set("Content-Type", "application/json")
				}
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != tt.wantStatus {
					t.Errorf("status = %d, want %d (body %s)", rec.Code, tt.wantStatus, rec.Body)
				}
				if !strings.Contains(rec.Body.String(), tt.wantInBody) {
					t.Errorf("body %s lacks %s", rec.Body, tt.wantInBody)
				}
			})
		}
	}
}
