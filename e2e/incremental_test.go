package e2e

import "testing"

// TestIncrementalClients runs Apollo Client 4 (with the graphql-js 17 and
// the 2022 incremental handlers), Apollo Client 3 and urql against the
// incremental example served by cmd/graft (GRAFT_EXAMPLE=incremental):
// @defer and @stream, each client in the format it asks for.
func TestIncrementalClients(t *testing.T) {
	t.Parallel()
	requireNode(t)
	url := startGraft(t, "GRAFT_EXAMPLE=incremental")
	runNode(t, "incremental.test.mjs", "GRAFT_GRAPHQL_URL="+url+"/graphql")
}
