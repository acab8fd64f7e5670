package e2e

import "testing"

// TestRelayRuntime runs relay-runtime (relay.test.mjs) against cmd/graft
// serving the bookstore example, GRAFT_EXAMPLE=bookstore: a connection
// paginated forward and backward through Relay's connection handler, and
// a node refetched by its global id.
func TestRelayRuntime(t *testing.T) {
	t.Parallel()
	requireNode(t)
	url := startGraft(t, "GRAFT_EXAMPLE=bookstore")
	runNode(t, "relay.test.mjs", "GRAFT_GRAPHQL_URL="+url+"/graphql")
}
