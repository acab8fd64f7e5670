package e2e

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/chat"
	"github.com/graftgql/graft/internal/testenv"
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

// TestGraphiQLCountdownInChromium runs countdown from the GraphiQL page in
// headless Chromium, with the assets served from the npm packages.
func TestGraphiQLCountdownInChromium(t *testing.T) {
	t.Parallel()
	chromium := testenv.LookPath(t, "chromium")
	requireNode(t)
	modules := nodeModules(t)
	s, err := chat.Schema()
	if err != nil {
		t.Fatal(err)
	}
	router, err := graft.NewRouter(s, nil, graft.Config{GraphiQL: &graft.GraphiQLConfig{AssetBaseURL: "/assets"}})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/assets/", http.StripPrefix("/assets", assetHandler(modules)))
	mux.Handle("/", router)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	runBrowser(t, "graphiql-countdown.test.mjs",
		"GRAFT_GRAPHIQL_URL="+endpoint(t, srv, graft.DefaultGraphiQLPath),
		"GRAFT_CHROMIUM="+chromium)
}
