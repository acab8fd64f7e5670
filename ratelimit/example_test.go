package ratelimit_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/ratelimit"
	"github.com/graftgql/graft/schema"
)

// Each API key may spend 5 points a minute; { a: hello b: hello } costs 2.
func Example() {
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(context.Context) (string, error) { return "world", nil })
	s, _ := b.Build()

	limiter, err := ratelimit.New(ratelimit.Options{Budget: 5, Key: ratelimit.ByHeader("X-Api-Key")})
	if err != nil {
		panic(err)
	}
	cfg := graft.Config{}
	limiter.Install(&cfg)
	r, _ := graft.NewRouter(s, nil, cfg)

	for range 3 {
		req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(`{"query":"{ a: hello b: hello }"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Api-Key", "key-1")
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, req)
		body, _ := io.ReadAll(rec.Body)
		fmt.Println(rec.Code, strings.Contains(string(body), `"remaining"`), strings.Contains(string(body), ratelimit.CodeRateLimited))
	}
	// Output:
	// 200 true false
	// 200 true false
	// 429 true true
}
