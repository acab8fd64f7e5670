package e2e

import (
	"net/http/httptest"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/incremental"
)

// TestIncrementalClients runs Apollo Client 4 (with the graphql-js 17 and
// the 2022 incremental handlers), Apollo Client 3 and urql against the
// incremental example (what `GRAFT_EXAMPLE=incremental graft` serves):
// @defer and @stream, each client in the format it asks for.
func TestIncrementalClients(t *testing.T) {
	t.Parallel()
	requireNode(t)
	s, err := incremental.Schema()
	if err != nil {
		t.Fatal(err)
	}
	router, err := graft.NewRouter(s, nil, graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(router)
	t.Cleanup(srv.Close)
	runNode(t, "incremental.test.mjs", "GRAFT_GRAPHQL_URL="+endpoint(t, srv, graft.DefaultPath))
}
