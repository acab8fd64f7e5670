package graft_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/internal/wiretest"
	"github.com/graftgql/graft/schema"
)

func TestWebHandlerRoundTrip(t *testing.T) {
	tests := []struct {
		name       string
		method     string
		target     string
		body       string
		wantStatus int
		wantInBody string
		wantCode   string
	}{
		{"POST query", http.MethodPost, "/graphql", `{"query":"{ hello }"}`, 200, `"hello":"world"`, ""},
		{"GET query", http.MethodGet, "/graphql?query=%7B%20hello%20%7D", "", 200, `"hello":"world"`, ""},
		{"syntax error", http.MethodPost, "/graphql", `{"query":"{ hello"}`, 400, "", "GRAPHQL_PARSE_FAILED"},
		{"body over the limit", http.MethodPost, "/graphql", `{"query":"{ hello }", "padding":"` + strings.Repeat("x", 200) + `"}`, 413, "", "PAYLOAD_TOO_LARGE"},
		{"unknown path", http.MethodGet, "/elsewhere", "", 404, "", ""},
	}
	layer := graft.NewLayer()
	started := 0
	stopped := 0
	graft.Provide(layer, func(context.Context) (string, func(context.Context) error, error) {
		started++
		return "svc", func(context.Context) error { stopped++; return nil }, nil
	})
	router := serveTestRouter(t, layer, graft.Config{MaxBodyBytes: 128}, nil, nil)
	h := graft.NewWebHandler(router)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, tt.target, strings.NewReader(tt.body))
			if tt.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			resp, err := h.Handle(context.Background(), req)
			if err != nil {
				t.Fatalf("Handle: %v", err)
			}
			raw, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.wantStatus {
				t.Errorf("status = %d, want %d (body %s)", resp.StatusCode, tt.wantStatus, raw)
			}
			if resp.ContentLength != int64(len(raw)) {
				t.Errorf("ContentLength = %d, body has %d bytes", resp.ContentLength, len(raw))
			}
			if tt.wantInBody != "" && !strings.Contains(string(raw), tt.wantInBody) {
				t.Errorf("body %s lacks %s", raw, tt.wantInBody)
			}
			if tt.wantCode != "" {
				if got := firstErrorCode(t, raw); got != tt.wantCode {
					t.Errorf("extensions.code = %q, want %q (body %s)", got, tt.wantCode, raw)
				}
			}
			if tt.wantStatus != 404 && !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/") {
				t.Errorf("Content-Type = %q", resp.Header.Get("Content-Type"))
			}
		})
	}
	if started != 1 {
		t.Errorf("layer started %d times over the requests, want once", started)
	}
	if err := h.Close(context.Background()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if stopped != 1 {
		t.Errorf("layer cleanups after Close = %d, want 1", stopped)
	}
}

// firstErrorCode returns extensions.code of the first error of a GraphQL
// response body.
func firstErrorCode(t *testing.T, raw []byte) string {
	t.Helper()
	var body struct {
		Errors []struct {
			Extensions map[string]any `json:"extensions"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatalf("body %s: %v", raw, err)
	}
	if len(body.Errors) == 0 {
		return ""
	}
	code, _ := body.Errors[0].Extensions["code"].(string)
	return code
}

func TestRouterMountsWithDefaults(t *testing.T) {
	h, err := graft.NewRouter(serveTestSchema(t, nil, nil), graft.NewLayer(), graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(`{"query":"{ hello }"}`))
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(rec, req)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"hello":"world"`) {
		t.Errorf("got %d %s, want 200 with data.hello", rec.Code, rec.Body)
	}
}

// webHandler is the one place the wire cases build the web handler.
func webHandler(r *graft.Router) *graft.WebHandler { return graft.NewWebHandler(r) }

// TestWireCases runs the shared black-box cases against the router over
// net/http and through the web handler.
func TestWireCases(t *testing.T) {
	plain, protected := wiretest.Router(t), wiretest.ProtectedRouter(t)
	plainSrv, protectedSrv := httptest.NewServer(plain), httptest.NewServer(protected)
	defer plainSrv.Close()
	defer protectedSrv.Close()
	plainWeb, protectedWeb := webHandler(plain), webHandler(protected)

	for _, c := range wiretest.Cases() {
		srv, web := plainSrv, plainWeb
		if c.Protected {
			srv, web = protectedSrv, protectedWeb
		}
		newRequest := func(base string) *http.Request {
			req, err := http.NewRequest(c.Method, base+c.Path, strings.NewReader(c.Body))
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range c.Header {
				req.Header.Set(k, v)
			}
			return req
		}
		t.Run("net/http/"+c.Name, func(t *testing.T) {
			resp, err := srv.Client().Do(newRequest(srv.URL))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			wiretest.Check(t, c, wiretest.Result{Status: resp.StatusCode, Header: resp.Header, Body: body})
		})
		t.Run("WebHandler/"+c.Name, func(t *testing.T) {
			resp, err := web.Handle(context.Background(), newRequest("https://api.example.com"))
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			wiretest.Check(t, c, wiretest.Result{Status: resp.StatusCode, Header: resp.Header, Body: body})
		})
	}
}

func TestNewRouterRefusesAMissingSchema(t *testing.T) {
	for name, s := range map[string]*schema.Schema{"nil": nil, "zero": {}} {
		if _, err := graft.NewRouter(s, nil, graft.Config{}); err == nil || !strings.Contains(err.Error(), "graft: NewRouter: no schema") {
			t.Errorf("%s schema: err = %v", name, err)
		}
	}
}
