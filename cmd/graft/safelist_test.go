package main

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSafelistWorkflow is the safelist workflow end to end with the
// command line: graft manifest builds the manifest from a .graphql file,
// graft hash prints the id of the file's operation (the same
// normalisation), the server serves the manifest, and a client sending
// that id, as Apollo Client's persisted-query link does, gets its data.
func TestSafelistWorkflow(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "authors.graphql")
	// Written as a person writes it: comments, commas, odd spacing and a
	// fragment, none of which the id depends on.
	src := "# the front page\nquery Authors($n: Int) {\n\tauthors(first: $n) { ...Who }\n}\n\nfragment Who on Author { name,  id }\n"
	if err := os.WriteFile(doc, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	none := func(string) (string, bool) { return "", false }
	manifest := filepath.Join(dir, "manifest.json")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"manifest", "-o", manifest, doc}, none, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("graft manifest: %d %s", code, &stderr)
	}
	stdout.Reset()
	if code := run(context.Background(), []string{"hash", doc}, none, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("graft hash: %d %s", code, &stderr)
	}
	id := strings.TrimSpace(stdout.String())
	stdout.Reset()
	if code := run(context.Background(), []string{"hash", "-raw", doc}, none, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("graft hash -raw: %d %s", code, &stderr)
	}
	rawID := strings.TrimSpace(stdout.String())
	m, _ := os.ReadFile(manifest)
	if !strings.Contains(string(m), `"id": "`+id+`"`) {
		t.Fatalf("graft hash printed %s, not an id of the manifest:\n%s", id, m)
	}

	srv := startServer(t, map[string]string{"PERSISTED_QUERIES_MANIFEST": manifest})
	ext := `{"persistedQuery":{"version":1,"sha256Hash":"` + id + `"}}`
	status, _, body := call(t, "POST", srv.URL+"/graphql", `{"operationName":"Authors","variables":{"n":1},"extensions":`+ext+`}`, jsonHeader)
	if status != 200 || !strings.Contains(body, `"authors":[{"name":`) {
		t.Errorf("POST by the id graft hash printed = %d %s, want 200 with data", status, body)
	}
	get := srv.URL + "/graphql?operationName=Authors&variables=" + url.QueryEscape(`{"n":1}`) + "&extensions=" + url.QueryEscape(ext)
	status, _, body = call(t, "GET", get, "", map[string]string{"client-require-preflight": "1"})
	if status != 200 || !strings.Contains(body, `"authors":[{"name":`) {
		t.Errorf("GET by the id = %d %s, want 200 with data", status, body)
	}
	// The hash of the file's bytes is not the manifest's id: -raw is for
	// automatic persisted queries, where the client registers what it
	// hashed.
	if rawID == id {
		t.Fatalf("-raw printed the canonical id")
	}
	rawExt := `{"persistedQuery":{"version":1,"sha256Hash":"` + rawID + `"}}`
	if status, _, body := call(t, "POST", srv.URL+"/graphql", `{"extensions":`+rawExt+`}`, jsonHeader); status == 200 && strings.Contains(body, `"data"`) {
		t.Errorf("the raw hash ran in safelist mode: %d %s", status, body)
	}
}
