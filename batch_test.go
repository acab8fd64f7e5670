package graft_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/limits"
)

// batchReply decodes a batch answer: one GraphQL response per operation.
func batchReply(t *testing.T, raw string) []map[string]any {
	t.Helper()
	var out []map[string]any
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		t.Fatalf("not a JSON array of responses: %v: %s", err, raw)
	}
	return out
}

func itemCode(item map[string]any) any {
	errs, _ := item["errors"].([]any)
	if len(errs) == 0 {
		return nil
	}
	ext, _ := errs[0].(map[string]any)["extensions"].(map[string]any)
	return ext["code"]
}

func itemStatus(item map[string]any) any {
	ext, _ := item["extensions"].(map[string]any)
	return ext["status"]
}

func TestBatching(t *testing.T) {
	r := newTestRouter(t, graft.Config{MaxBatch: 4})
	body := `[{"query":"{ hello }"},{"query":"{ hello "},7,{"query":"query($t: String!) { echo(text: $t) }","variables":{"t":"hi"}}]`
	got := send(t, r, "POST", "/graphql", body)
	if got.status != 200 || !strings.HasPrefix(got.header.Get("Content-Type"), "application/json") {
		t.Fatalf("batch: %d %s", got.status, got.raw)
	}
	items := batchReply(t, got.raw)
	if len(items) != 4 {
		t.Fatalf("%d responses, want 4: %s", len(items), got.raw)
	}
	if d, _ := items[0]["data"].(map[string]any); d["hello"] != "world" || items[0]["extensions"] != nil {
		t.Errorf("operation 0: %v", items[0])
	}
	if itemCode(items[1]) != "GRAPHQL_PARSE_FAILED" || itemStatus(items[1]) != 400.0 {
		t.Errorf("operation 1 (syntax error): %v", items[1])
	}
	if itemCode(items[2]) != "BAD_REQUEST" || itemStatus(items[2]) != 400.0 {
		t.Errorf("operation 2 (not an object): %v", items[2])
	}
	if d, _ := items[3]["data"].(map[string]any); d["echo"] != "hi" {
		t.Errorf("operation 3: %v", items[3])
	}

	// Each operation is held to the limits on its own too: the one over
	// them alone is refused (TestBatchLimitsSum holds their sum).
	limited := newTestRouter(t, graft.Config{MaxBatch: 4, Complexity: limits.Config{MaxFields: 1}})
	got = send(t, limited, "POST", "/graphql", `[{"query":"{ hello }"},{"query":"{ hello greeting }"}]`)
	items = batchReply(t, got.raw)
	if len(items) != 2 || items[0]["data"] == nil || itemCode(items[1]) != "COMPLEXITY_LIMIT_EXCEEDED" || itemStatus(items[1]) != 400.0 {
		t.Errorf("limits per operation: %s", got.raw)
	}

	for _, tc := range []struct{ name, body, msg string }{
		{"over the limit", `[{"query":"{ hello }"},{"query":"{ hello }"},{"query":"{ hello }"},{"query":"{ hello }"},{"query":"{ hello }"}]`, "more than the limit of 4"},
		{"empty", `[]`, "empty"},
		{"not JSON", `[{"query":"{ hello }"},`, "not a valid JSON array"},
	} {
		got := send(t, r, "POST", "/graphql", tc.body)
		if got.status != 400 || got.code(0) != "BAD_REQUEST" || !strings.Contains(got.raw, tc.msg) {
			t.Errorf("%s: %d %s", tc.name, got.status, got.raw)
		}
	}

	off := newTestRouter(t, graft.Config{})
	if got := send(t, off, "POST", "/graphql", `[{"query":"{ hello }"}]`); got.status != 400 || !strings.Contains(got.raw, "not enabled") {
		t.Errorf("batching off: %d %s", got.status, got.raw)
	}
}

// TestBatchBodyLimit: the batch as a whole is held to MaxBodyBytes.
func TestBatchBodyLimit(t *testing.T) {
	r := newTestRouter(t, graft.Config{MaxBatch: 100, MaxBodyBytes: 100})
	op := `{"query":"{ hello }"}`
	small := "[" + op + "," + op + "]"
	if got := send(t, r, "POST", "/graphql", small); got.status != 200 {
		t.Fatalf("small batch: %d %s", got.status, got.raw)
	}
	big := "[" + strings.Repeat(op+",", 10) + op + "]"
	if got := send(t, r, "POST", "/graphql", big); got.status != 413 || got.code(0) != "PAYLOAD_TOO_LARGE" {
		t.Fatalf("batch over the body limit: %d %s", got.status, got.raw)
	}
}

// TestBatchStatusPolicy: each operation's status follows the policy.
func TestBatchStatusPolicy(t *testing.T) {
	r := newTestRouter(t, graft.Config{MaxBatch: 2, StatusCodes: graft.StatusCodesSpec})
	got := send(t, r, "POST", "/graphql", `[{"query":"{ nope }"},{"query":"{ hello fail }"}]`, "Accept", "application/graphql-response+json")
	items := batchReply(t, got.raw)
	if got.status != 200 || len(items) != 2 || itemStatus(items[0]) != 422.0 || items[1]["data"] == nil || itemStatus(items[1]) != nil {
		t.Fatalf("spec batch: %d %s", got.status, got.raw)
	}
}
