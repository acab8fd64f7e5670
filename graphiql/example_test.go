package graphiql_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/graftgql/graft/graphiql"
)

// Serve GraphiQL next to an API, loading its files from a self-hosted copy
// of the npm packages instead of the public CDN.
func ExampleHandler() {
	page, err := graphiql.Handler(graphiql.Options{
		Endpoint:     "/api/graphql",
		AssetBaseURL: "/static/npm",
		Title:        "My API",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	mux := http.NewServeMux()
	mux.Handle("GET /graphiql", page)

	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/graphiql", nil))
	fmt.Println(rec.Code, rec.Header().Get("Content-Type"))
	for _, a := range graphiql.Assets {
		fmt.Println(a.URL("/static/npm"))
	}
	// Output:
	// 200 text/html; charset=utf-8
	// /static/npm/graphiql/graphiql.min.css
	// /static/npm/react/umd/react.production.min.js
	// /static/npm/react-dom/umd/react-dom.production.min.js
	// /static/npm/graphiql/graphiql.min.js
}
