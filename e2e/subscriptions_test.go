package e2e

import (
	"net/http/httptest"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/chat"
)

// TestSubscriptionClients runs the graphql-ws client, the graphql-sse
// client in both modes and Apollo Client (GraphQLWsLink and multipart
// HttpLink) against the chat example.
func TestSubscriptionClients(t *testing.T) {
	t.Parallel()
	requireNode(t)
	s, err := chat.Schema()
	if err != nil {
		t.Fatal(err)
	}
	router, err := graft.NewRouter(s, nil, graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(router)
	t.Cleanup(srv.Close)
	// Node 20 has WebSocket behind a flag.
	runNode(t, "subscriptions.test.mjs", "GRAFT_GRAPHQL_URL="+endpoint(t, srv, graft.DefaultPath),
		"NODE_OPTIONS=--experimental-websocket")
}
