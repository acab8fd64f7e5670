// Command todoservice is a GraphQL service run in production with one
// call: graftserver.Main gives it everything cmd/graft runs (health and
// readiness, metrics, tracing, access log, request IDs, CORS, CSRF,
// limits, persisted queries, Redis, graceful shutdown), configured from
// the environment, and cmd/graft's command line (sdl, hash, manifest).
//
//	go run ./examples/todoservice            # serve on :4000
//	go run ./examples/todoservice sdl        # print the schema
//	go run ./examples/todoservice --help     # every variable
package main

import "github.com/graftgql/graft/graftserver"

func main() {
	graftserver.Main(graftserver.Service{Name: "todoservice", Schema: Schema, Layer: Layer()})
}
