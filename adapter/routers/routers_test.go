package routers_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/labstack/echo/v4"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/schema"
)

func newRouter(t *testing.T) *graft.Router {
	t.Helper()
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(context.Context) (string, error) { return "world", nil })
	r, err := graft.ToRouter(b, graft.NewLayer(), graft.Config{GraphiQL: &graft.GraphiQLConfig{Endpoint: "/api/graphql"}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestMountInFrameworks mounts the router under /api in gin and echo,
// with a route registered after it, and checks every route answers.
func TestMountInFrameworks(t *testing.T) {
	router := newRouter(t)
	api := http.StripPrefix("/api", router)

	gin.SetMode(gin.ReleaseMode)
	g := gin.New()
	g.GET("/health", gin.WrapH(graft.Health()))
	g.Any("/api/*path", gin.WrapH(api))
	g.GET("/after", func(c *gin.Context) { c.String(http.StatusOK, "after") })

	e := echo.New()
	e.GET("/health", echo.WrapHandler(graft.Health()))
	e.Any("/api/*", echo.WrapHandler(api))
	e.GET("/after", func(c echo.Context) error { return c.String(http.StatusOK, "after") })

	tests := []struct {
		name, method, target, body string
		header                     map[string]string
		wantStatus                 int
		wantInBody                 string
	}{
		{"POST under the prefix", http.MethodPost, "/api/graphql", `{"query":"{ hello }"}`,
			map[string]string{"Content-Type": "application/json"}, 200, `"hello":"world"`},
		{"GET under the prefix", http.MethodGet, "/api/graphql?query=%7Bhello%7D", "", nil, 200, `"hello":"world"`},
		{"GraphiQL under the prefix", http.MethodGet, "/api/graphiql", "", map[string]string{"Accept": "text/html"}, 200, "/api/graphql"},
		{"405 keeps its Allow header", http.MethodPut, "/api/graphql", "", nil, 405, ""},
		{"health beside it", http.MethodGet, "/health", "", nil, 200, `"ok"`},
		{"route registered after it", http.MethodGet, "/after", "", nil, 200, "after"},
	}
	for name, h := range map[string]http.Handler{"gin": g, "echo": e} {
		for _, tt := range tests {
			t.Run(name+"/"+tt.name, func(t *testing.T) {
				req := httptest.NewRequest(tt.method, tt.target, strings.NewReader(tt.body))
				for k, v := range tt.header {
					req.Header.Set(k, v)
				}
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				body, _ := io.ReadAll(rec.Body)
				if rec.Code != tt.wantStatus {
					t.Errorf("status = %d, want %d (body %s)", rec.Code, tt.wantStatus, body)
				}
				if !strings.Contains(string(body), tt.wantInBody) {
					t.Errorf("body %s lacks %s", body, tt.wantInBody)
				}
				if tt.wantStatus == 405 && rec.Header().Get("Allow") == "" {
					t.Error("405 without an Allow header")
				}
			})
		}
	}
}
