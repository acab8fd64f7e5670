package graft_test

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/persisted"
)

// TestPersistedDocumentIDs runs documents named by documentId (the
// GraphQL-over-HTTP persisted-documents proposal) from a manifest in the
// flat {id: document} shape GraphQL Code Generator's client preset writes,
// with sha256: ids, bare hex ids and a custom id, over POST and GET.
func TestPersistedDocumentIDs(t *testing.T) {
	hello, mutation := `query Hello { hello }`, `mutation Ping { rename(name: "x") }`
	h := persisted.Hash(persisted.SHA256, hello)
	m := persisted.Hash(persisted.SHA256, mutation)
	path := filepath.Join(t.TempDir(), "persisted-documents.json")
	manifest := `{"` + h + `":"query Hello { hello }","sha256:` + m + `":"mutation Ping { rename(name: \"x\") }","x-app:greeting":"{ greeting }"}`
	if err := os.WriteFile(path, []byte(manifest), 0o600); err != nil {
		t.Fatal(err)
	}
	entries, err := persisted.LoadManifest(path)
	if err != nil {
		t.Fatal(err)
	}
	store, err := persisted.NewSafelistStore(entries)
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRouter(t, graft.Config{PersistedQueries: &persisted.Options{Mode: persisted.Safelist, Store: store}})
	get := func(id string) string { return "/graphql?" + url.Values{"documentId": {id}}.Encode() }

	tests := []struct {
		name, method, target, body string
		status                     int
		code                       string
		data                       string
	}{
		{"POST sha256: id", "POST", "/graphql", `{"documentId":"sha256:` + h + `"}`, 200, "", "hello"},
		{"POST bare hex id", "POST", "/graphql", `{"documentId":"` + h + `"}`, 200, "", "hello"},
		{"POST custom id", "POST", "/graphql", `{"documentId":"x-app:greeting"}`, 200, "", "greeting"},
		{"GET sha256: id", "GET", get("sha256:" + h), "", 200, "", "hello"},
		{"GET custom id", "GET", get("x-app:greeting"), "", 200, "", "greeting"},
		{"POST mutation", "POST", "/graphql", `{"documentId":"sha256:` + m + `"}`, 200, "", "rename"},
		{"GET mutation is refused", "GET", get("sha256:" + m), "", 405, "BAD_REQUEST", ""},
		{"unknown id", "POST", "/graphql", `{"documentId":"x-app:nope"}`, 403, "PERSISTED_QUERY_NOT_ALLOWED", ""},
		{"unknown hash", "POST", "/graphql", `{"documentId":"sha256:` + persisted.Hash(persisted.SHA256, "{ x }") + `"}`, 403, "PERSISTED_QUERY_NOT_ALLOWED", ""},
		{"malformed id", "POST", "/graphql", `{"documentId":"sha256:xyz"}`, 400, "BAD_REQUEST", ""},
		{"id without prefix", "POST", "/graphql", `{"documentId":"greeting"}`, 400, "BAD_REQUEST", ""},
		{"id of wrong type", "POST", "/graphql", `{"documentId":7}`, 400, "BAD_REQUEST", ""},
		{"both query and documentId", "POST", "/graphql", `{"query":"{ hello }","documentId":"sha256:` + h + `"}`, 400, "BAD_REQUEST", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := send(t, r, tc.method, tc.target, tc.body)
			if got.status != tc.status {
				t.Fatalf("status %d, want %d: %s", got.status, tc.status, got.raw)
			}
			if tc.code != "" && got.code(0) != tc.code {
				t.Fatalf("code %v, want %s: %s", got.code(0), tc.code, got.raw)
			}
			if tc.data != "" && got.body.Data[tc.data] == nil {
				t.Fatalf("no data.%s: %s", tc.data, got.raw)
			}
			if tc.status == 405 && got.header.Get("Allow") != "POST" {
				t.Fatalf("Allow = %q", got.header.Get("Allow"))
			}
		})
	}

	plain := newTestRouter(t, graft.Config{})
	if got := send(t, plain, "POST", "/graphql", `{"documentId":"sha256:`+h+`"}`); got.code(0) != "PERSISTED_QUERY_NOT_SUPPORTED" {
		t.Fatalf("documentId without persisted queries: %d %s", got.status, got.raw)
	}
	apq := newTestRouter(t, graft.Config{PersistedQueries: &persisted.Options{Mode: persisted.APQ}})
	if got := send(t, apq, "POST", "/graphql", `{"documentId":"sha256:`+h+`"}`); got.code(0) != "PERSISTED_QUERY_NOT_FOUND" {
		t.Fatalf("unknown documentId in APQ mode: %d %s", got.status, got.raw)
	}
}

// TestUnknownDocumentIDNotEchoed sends a safelist an unknown documentId of
// 500 KB: the 403 names the code, not the id, so its answer stays small;
// an unknown id of ordinary length is still echoed.
func TestUnknownDocumentIDNotEchoed(t *testing.T) {
	store, err := persisted.NewSafelistStore(map[string]string{persisted.Hash(persisted.SHA256, "{ hello }"): "{ hello }"})
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRouter(t, graft.Config{PersistedQueries: &persisted.Options{Mode: persisted.Safelist, Store: store}})
	long := "x-app:" + strings.Repeat("a", 500_000)
	got := send(t, r, "POST", "/graphql", `{"documentId":"`+long+`"}`)
	if got.status != 403 || got.code(0) != "PERSISTED_QUERY_NOT_ALLOWED" || len(got.raw) > 200 {
		t.Fatalf("unknown 500 KB documentId: %d, %d bytes: %.300s", got.status, len(got.raw), got.raw)
	}
	got = send(t, r, "POST", "/graphql", `{"documentId":"x-app:nope"}`)
	if ext, _ := got.body.Errors[0]["extensions"].(map[string]any); got.status != 403 || ext["hash"] != "x-app:nope" {
		t.Fatalf("unknown short documentId: %d %s", got.status, got.raw)
	}
}
