package e2e

import (
	"net/http/httptest"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/federationproducts"
	"github.com/graftgql/graft/examples/federationreviews"
	"github.com/graftgql/graft/federation"
	"github.com/graftgql/graft/schema"
)

// startSubgraph serves one example subgraph over HTTP.
func startSubgraph(t *testing.T, build func() (*schema.Schema, error)) string {
	t.Helper()
	s, err := build()
	if err != nil {
		t.Fatal(err)
	}
	router, err := graft.NewRouter(s, nil, graft.Config{Hooks: []graft.Hook{federation.TracingHook()}})
	if err != nil {
		t.Fatalf("NewRouter: %v", err)
	}
	srv := httptest.NewServer(router)
	t.Cleanup(srv.Close)
	return endpoint(t, srv, graft.DefaultPath)
}

// TestFederationGateway composes the supergraph of the graft products and
// reviews subgraphs and the compatibility suite's inventory and users
// reference subgraphs (Node) with @apollo/composition, serves it with
// @apollo/gateway, and runs queries that cross the subgraphs.
func TestFederationGateway(t *testing.T) {
	t.Parallel()
	requireNode(t)
	runNode(t, "federation.test.mjs",
		"GRAFT_PRODUCTS_URL="+startSubgraph(t, federationproducts.Schema),
		"GRAFT_REVIEWS_URL="+startSubgraph(t, federationreviews.Schema))
}
