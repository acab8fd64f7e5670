// Command gqlgenchat serves the chat schema with gqlgen, its WebSocket
// transport (graphql-transport-ws) and its SSE transport (graphql-sse's
// distinct connections mode, POST) on $HOST:$PORT, for cmd/subsbench.
package main

import (
	"log"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/transport"

	"github.com/graftgql/graft/bench/peers/gqlgenchat"
)

func main() {
	srv := handler.New(gqlgenchat.NewExecutableSchema(gqlgenchat.Config{Resolvers: gqlgenchat.NewResolver()}))
	// gqlgen's WebSocket transport uses github.com/coder/websocket, as
	// graft does; pings every 12 s, as graft's default.
	srv.AddTransport(transport.Websocket{KeepAlivePingInterval: 12 * time.Second})
	// SSE before POST: both take a JSON POST, SSE the one that accepts
	// text/event-stream. Keep-alive comments every 12 s, as graft's.
	srv.AddTransport(transport.SSE{KeepAlivePingInterval: 12 * time.Second})
	srv.AddTransport(transport.POST{})
	mux := http.NewServeMux()
	mux.Handle("/graphql", srv)
	mux.HandleFunc("/health", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(`{"status":"ok"}`)) })
	addr := net.JoinHostPort(os.Getenv("HOST"), os.Getenv("PORT"))
	log.Fatal(http.ListenAndServe(addr, mux))
}
