package e2e

import (
	"path/filepath"
	"testing"

	"github.com/graftgql/graft/internal/testenv"
)

// TestClientMatrix runs the clients people use against the ready-to-run
// server, cmd/graft, built and started as a process with its default
// settings (CSRF prevention, automatic persisted queries, masking) and
// the chat example: Apollo Client 3 and 4, urql with its persisted-query
// exchange over GET and POST, graphql-request, relay-runtime's fetch
// network layer, graphql-ws and graphql-sse, each with queries,
// mutations, variables, errors, persisted queries and subscriptions
// where the client has them (clients.test.mjs).
func TestClientMatrix(t *testing.T) {
	t.Parallel()
	requireNode(t)
	url := startGraft(t, "GRAFT_EXAMPLE=chat")
	runNode(t, "clients.test.mjs", "GRAFT_GRAPHQL_URL="+url+"/graphql",
		"NODE_OPTIONS=--experimental-websocket") // Node 20 has WebSocket behind a flag
}

// TestGraphiQLAgainstCmdGraft opens the GraphiQL page of cmd/graft (the
// Star Wars example, assets embedded in the binary) in headless Chromium
// with no network, and runs a query from it.
func TestGraphiQLAgainstCmdGraft(t *testing.T) {
	t.Parallel()
	chromium := testenv.LookPath(t, "chromium")
	requireNode(t)
	url := startGraft(t, "GRAFT_EXAMPLE=starwars", "GRAPHIQL_ENABLED=true", "GRAPHIQL_ASSETS=embedded")
	runBrowser(t, "graphiql.test.mjs",
		"GRAFT_GRAPHIQL_URL="+url+"/graphiql",
		"GRAFT_CHROMIUM="+chromium,
		"GRAFT_OFFLINE=1",
		"GRAFT_SCREENSHOT="+filepath.Join(t.TempDir(), "graphiql-cmd-graft.png"))
}
