package fasthttpadapter_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"

	fasthttpadapter "github.com/graftgql/graft/adapter/fasthttpadapter"
	"github.com/graftgql/graft/internal/wiretest"
)

const benchBody = `{"query":"{ hello whoami }"}`

// BenchmarkFastHTTPHandler measures one POST through Handler, without the
// network.
func BenchmarkFastHTTPHandler(b *testing.B) {
	h := fasthttpadapter.Handler(wiretest.Router(b))
	var ctx fasthttp.RequestCtx
	b.ReportAllocs()
	for b.Loop() {
		ctx.Request.Reset()
		ctx.Response.Reset()
		ctx.Request.Header.SetMethod("POST")
		ctx.Request.SetRequestURI("/graphql")
		ctx.Request.Header.SetContentType("application/json")
		ctx.Request.SetBodyString(benchBody)
		h(&ctx)
		if ctx.Response.StatusCode() != 200 {
			b.Fatalf("status %d: %s", ctx.Response.StatusCode(), ctx.Response.Body())
		}
	}
}

// BenchmarkNetHTTPServeHTTP is the same request through the router's
// ServeHTTP, for comparison.
func BenchmarkNetHTTPServeHTTP(b *testing.B) {
	router := wiretest.Router(b)
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(benchBody))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		router.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	}
}
