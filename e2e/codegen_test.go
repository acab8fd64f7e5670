package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/persisted"
)

// TestCodegenPersistedDocuments runs GraphQL Code Generator's client
// preset (codegen.mjs) over testdata/codegen/*.graphql and the Star Wars
// schema, loads the persisted-documents.json it writes through
// PERSISTED_QUERIES_MANIFEST, as cmd/graft does, and runs every generated
// document by its documentId (codegen.test.mjs).
func TestCodegenPersistedDocuments(t *testing.T) {
	t.Parallel()
	node := requireNode(t)
	dir := t.TempDir()
	schemaFile := filepath.Join(dir, "schema.graphql")
	if err := os.WriteFile(schemaFile, []byte(starwarsSchema(t).SDL()), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "gql")
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Second)
	defer cancel()
	var log bytes.Buffer
	cmd := exec.CommandContext(ctx, node, "codegen.mjs", schemaFile, out)
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Run(); err != nil {
		t.Fatalf("codegen: %v\n%s", err, log.String())
	}
	manifest := filepath.Join(out, "persisted-documents.json")
	opts, err := persisted.ConfigFromLookup(func(name string) (string, bool) {
		if name == "PERSISTED_QUERIES_MANIFEST" {
			return manifest, true
		}
		return "", false
	})
	if err != nil {
		t.Fatalf("PERSISTED_QUERIES_MANIFEST=%s: %v", manifest, err)
	}
	srv, _ := startServer(t, graft.Config{PersistedQueries: &opts}, "")
	runNode(t, "codegen.test.mjs", "GRAFT_GRAPHQL_URL="+endpoint(t, srv, graft.DefaultPath), "GRAFT_CODEGEN_DIR="+out)
}
