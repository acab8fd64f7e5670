package graft_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/schema"
)

// exampleSchema is the schema the examples serve: { hello }.
func exampleSchema() *schema.Schema {
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(context.Context) (string, error) { return "world", nil })
	s, err := b.Build()
	if err != nil {
		log.Fatal(err)
	}
	return s
}

// Serve the router on port 4000 until SIGINT or SIGTERM, with health
// routes and CORS in front of it.
func ExampleServe() {
	layer := graft.NewLayer()
	router, err := graft.NewRouter(exampleSchema(), layer, graft.Config{
		GraphiQL: &graft.GraphiQLConfig{},
	})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/health", graft.Health())
	mux.Handle("/ready", graft.Ready())
	mux.Handle("/", router)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = graft.Serve(ctx, router, graft.ServeOptions{
		Port:    4000,
		Handler: graft.CORS(graft.CORSOptions{})(mux),
		OnStart: func(url string) { fmt.Println("GraphQL at", url+"/graphql") },
	})
	if err != nil {
		log.Fatal(err)
	}
}

// Mount the router, an http.Handler, in an existing mux. Its layer starts
// with the first request.
func ExampleRouter_mount() {
	h, err := graft.NewRouter(exampleSchema(), graft.NewLayer(), graft.Config{})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/api/", http.StripPrefix("/api", h))

	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/api/graphql?query=%7Bhello%7D", nil)
	mux.ServeHTTP(rec, req)
	fmt.Println(rec.Code, strings.TrimSpace(rec.Body.String()))
	// Output: 200 {"data":{"hello":"world"}}
}

// Run a request through the router without a server, as a serverless
// host does.
func ExampleNewWebHandler() {
	layer := graft.NewLayer()
	router, err := graft.NewRouter(exampleSchema(), layer, graft.Config{})
	if err != nil {
		log.Fatal(err)
	}
	h := graft.NewWebHandler(router)
	defer h.Close(context.Background())

	req, _ := http.NewRequest(http.MethodPost, "https://api.example.com/graphql",
		strings.NewReader(`{"query":"{ hello }"}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := h.Handle(context.Background(), req)
	if err != nil {
		log.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, strings.TrimSpace(string(body)))
	// Output: 200 {"data":{"hello":"world"}}
}

// Allow one web origin, with cookies, to call the API.
func ExampleCORS() {
	api := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {})
	h := graft.CORS(graft.CORSOptions{
		AllowedOrigins:   []string{"https://app.example.com"},
		AllowCredentials: true,
	})(api)

	req := httptest.NewRequest(http.MethodOptions, "/graphql", nil)
	req.Header.Set("Origin", "https://app.example.com")
	req.Header.Set("Access-Control-Request-Method", "POST")
	req.Header.Set("Access-Control-Request-Headers", "content-type")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	fmt.Println(rec.Code, rec.Header().Get("Access-Control-Allow-Origin"))
	// Output: 204 https://app.example.com
}

// Register liveness and readiness routes before the GraphQL router; a
// failing check turns readiness to 503. The body names the check; its
// error goes to the check's Logger only.
func ExampleReady() {
	mux := http.NewServeMux()
	mux.Handle("/health", graft.Health())
	mux.Handle("/ready", graft.Ready(graft.Check{
		Name:   "redis",
		Fn:     func(ctx context.Context) error { return errors.New("dial tcp 10.0.0.7:6379: connection refused") },
		Logger: slog.New(slog.DiscardHandler),
	}))

	for _, path := range []string{"/health", "/ready"} {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		fmt.Println(path, rec.Code, strings.TrimSpace(rec.Body.String()))
	}
	// Output:
	// /health 200 {"status":"ok"}
	// /ready 503 {"status":"not ready","checks":{"redis":"unavailable"}}
}

// Health answers liveness probes whatever the state of dependencies.
func ExampleHealth() {
	rec := httptest.NewRecorder()
	graft.Health().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/health", nil))
	fmt.Println(rec.Code, strings.TrimSpace(rec.Body.String()))
	// Output: 200 {"status":"ok"}
}
