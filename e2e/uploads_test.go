package e2e

import "testing"

// TestUploadClients runs apollo-upload-client with Apollo Client, and
// urql's multipart uploads, against cmd/graft serving GRAFT_EXAMPLE=uploads
// with its defaults (CSRF prevention on, 16 MiB per file, 10 files).
func TestUploadClients(t *testing.T) {
	t.Parallel()
	requireNode(t)
	url := startGraft(t, "GRAFT_EXAMPLE=uploads")
	runNode(t, "uploads.test.mjs", "GRAFT_GRAPHQL_URL="+url+"/graphql")
}
