package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/internal/testenv"
	"github.com/graftgql/graft/persisted"
)

// TestGraphQLOverHTTPAudit runs the graphql-http server audits against
// the router. audit.test.mjs holds the list of SHOULD audits the default
// status table and the media-type choice give up, and asserts each still
// fails for its reason; under the legacy policy every SHOULD passes, and
// under the spec policy (422, 294) every MUST.
func TestGraphQLOverHTTPAudit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		cfg        graft.Config
		exceptions string
	}{
		{"default status codes", graft.Config{}, "default"},
		{"legacy status codes", graft.Config{StatusCodes: graft.StatusCodesLegacy}, "legacy"},
		{"spec status codes", graft.Config{StatusCodes: graft.StatusCodesSpec}, "spec"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireNode(t)
			srv, _ := startServer(t, tt.cfg, "")
			runNode(t, "audit.test.mjs",
				"GRAFT_GRAPHQL_URL="+endpoint(t, srv, graft.DefaultPath),
				"GRAFT_AUDIT_EXCEPTIONS="+tt.exceptions)
		})
	}
}

// TestApolloClientPersistedQueries runs Apollo Client's persisted-query
// link against a router with APQ on, then checks what the server saw for
// each step of the script.
func TestApolloClientPersistedQueries(t *testing.T) {
	t.Parallel()
	requireNode(t)
	srv, rec := startServer(t, graft.Config{PersistedQueries: &persisted.Options{Mode: persisted.APQ}}, "")
	runNode(t, "apollo.test.mjs", "GRAFT_GRAPHQL_URL="+endpoint(t, srv, graft.DefaultPath))

	notFound := "PERSISTED_QUERY_NOT_FOUND"
	tests := []struct {
		step string
		want []seenRequest // Hash and CacheControl are checked separately
	}{
		{"post-miss", []seenRequest{
			{Method: "POST", HasQuery: false, Status: 200, Code: notFound},
			{Method: "POST", HasQuery: true, Status: 200},
		}},
		{"post-hit", []seenRequest{{Method: "POST", HasQuery: false, Status: 200}}},
		{"post-hit-new-client", []seenRequest{{Method: "POST", HasQuery: false, Status: 200}}},
		{"get-miss", []seenRequest{
			{Method: "GET", HasQuery: false, Status: 200, Code: notFound},
			{Method: "POST", HasQuery: true, Status: 200},
		}},
		{"get-hit", []seenRequest{{Method: "GET", HasQuery: false, Status: 200}}},
	}
	hashes := map[string]string{}
	for _, tt := range tests {
		t.Run(tt.step, func(t *testing.T) {
			got := rec.step(tt.step)
			if len(got) != len(tt.want) {
				t.Fatalf("server saw %d requests, want %d: %+v", len(got), len(tt.want), got)
			}
			for i, w := range tt.want {
				g := got[i]
				if g.Method != w.Method || g.HasQuery != w.HasQuery || g.Status != w.Status || g.Code != w.Code {
					t.Errorf("request %d = %s query:%v → %d %q, want %s query:%v → %d %q",
						i, g.Method, g.HasQuery, g.Status, g.Code, w.Method, w.HasQuery, w.Status, w.Code)
				}
				if len(g.Hash) != 64 {
					t.Errorf("request %d carries hash %q, want a sha256 hex", i, g.Hash)
				}
				if w.Code == notFound && g.CacheControl != "private, no-cache, must-revalidate" {
					t.Errorf("a miss has Cache-Control %q", g.CacheControl)
				}
			}
			hashes[tt.step] = got[0].Hash
		})
	}
	if hashes["post-miss"] != hashes["post-hit"] || hashes["post-hit"] != hashes["post-hit-new-client"] {
		t.Errorf("POST steps used different hashes: %v", hashes)
	}
	if hashes["get-miss"] != hashes["get-hit"] || hashes["get-miss"] == hashes["post-miss"] {
		t.Errorf("GET steps should share one hash, distinct from the POST query's: %v", hashes)
	}
	if hit := rec.step("get-hit"); len(hit) == 1 && hit[0].CacheControl != persisted.DefaultCacheControl {
		t.Errorf("GET hit Cache-Control = %q, want %q", hit[0].CacheControl, persisted.DefaultCacheControl)
	}
}

// TestGraphiQLInChromium opens the router's GraphiQL page in headless
// Chromium with the assets served from the npm packages, types and runs a
// query, and sees the result; the script saves a screenshot. A second
// page whose asset files were altered must not run them.
func TestGraphiQLInChromium(t *testing.T) {
	t.Parallel()
	chromium := testenv.LookPath(t, "chromium")
	requireNode(t)
	modules := nodeModules(t)
	srv, _ := startServer(t, graft.Config{
		GraphiQL: &graft.GraphiQLConfig{AssetBaseURL: "/assets"},
	}, modules)

	dir := os.Getenv("GRAFT_E2E_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	shot := filepath.Join(dir, "graphiql.png")
	runBrowser(t, "graphiql.test.mjs",
		"GRAFT_GRAPHIQL_URL="+endpoint(t, srv, graft.DefaultGraphiQLPath),
		"GRAFT_GRAPHIQL_TAMPERED_URL="+endpoint(t, srv, tamperedGraphiQLPath),
		"GRAFT_CHROMIUM="+chromium,
		"GRAFT_SCREENSHOT="+shot)

	png, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("screenshot %s is not a PNG", shot)
	}
	t.Logf("screenshot: %s (%d bytes)", shot, len(png))
}

// TestGraphiQLEmbeddedInChromium opens the GraphiQL page of a router
// serving its assets from the binary (GraphiQLConfig.Assets embedded) in
// headless Chromium with no network: nothing but the router is reachable,
// and the page's Content-Security-Policy allows scripts from 'self' only.
func TestGraphiQLEmbeddedInChromium(t *testing.T) {
	t.Parallel()
	chromium := testenv.LookPath(t, "chromium")
	requireNode(t)
	srv, _ := startServer(t, graft.Config{
		GraphiQL: &graft.GraphiQLConfig{Assets: graft.GraphiQLAssetsEmbedded},
	}, "")
	runBrowser(t, "graphiql.test.mjs",
		"GRAFT_GRAPHIQL_URL="+endpoint(t, srv, graft.DefaultGraphiQLPath),
		"GRAFT_CHROMIUM="+chromium,
		"GRAFT_OFFLINE=1",
		"GRAFT_SCREENSHOT="+filepath.Join(t.TempDir(), "graphiql-embedded.png"))
}

// TestApolloClientBatchHttpLink runs Apollo Client's BatchHttpLink against
// a router with HTTP batching on.
func TestApolloClientBatchHttpLink(t *testing.T) {
	t.Parallel()
	requireNode(t)
	srv, _ := startServer(t, graft.Config{MaxBatch: 10}, "")
	runNode(t, "batch.test.mjs", "GRAFT_GRAPHQL_URL="+endpoint(t, srv, graft.DefaultPath))
}
