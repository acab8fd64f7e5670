package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/graftgql/graft"
)

// TestDifferentialGraphQLJS sends the cases of testdata/differential.json
// to the router and to graphql-js 16 over the same Star Wars schema and
// data, and compares status, data, messages, locations and paths. The
// known differences are listed in the cases file, each with its reason.
func TestDifferentialGraphQLJS(t *testing.T) {
	t.Parallel()
	requireNode(t)
	srv, _ := startServer(t, graft.Config{}, "")
	sdl := filepath.Join(t.TempDir(), "starwars.graphql")
	if err := os.WriteFile(sdl, []byte(starwarsSchema(t).SDL()), 0o600); err != nil {
		t.Fatal(err)
	}
	cases, err := filepath.Abs(filepath.Join("testdata", "differential.json"))
	if err != nil {
		t.Fatal(err)
	}
	runNode(t, "differential.test.mjs",
		"GRAFT_GRAPHQL_URL="+endpoint(t, srv, graft.DefaultPath),
		"GRAFT_SDL="+sdl,
		"GRAFT_CASES="+cases)
}
