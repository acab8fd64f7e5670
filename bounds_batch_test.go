package graft_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/limits"
	"github.com/graftgql/graft/schema"
)

// TestBatchLimitsSum sends batches whose operations each pass the limits
// while their sum does not: the limits hold for the batch as a whole, so
// the operations past the sum are refused, and an operation over a limit
// on its own is still refused as before.
func TestBatchLimitsSum(t *testing.T) {
	r := newTestRouter(t, graft.Config{MaxBatch: 5, Complexity: limits.Config{MaxComplexity: 6, MaxAliases: 4, MaxFields: 6}})
	three := `{"query":"{ a: hello b: hello c: hello }"}`
	for _, tc := range []struct {
		name      string
		body      string
		ran       int    // operations answered with data, the first ones
		limitType string // of the refusals that follow
		batch     bool   // whether the refusals are the batch's
	}{
		{"five operations of three aliases each", "[" + strings.Repeat(three+",", 4) + three + "]", 1, "aliases", true},
		{"two operations within every sum", `[{"query":"{ hello }"},{"query":"{ x: hello }"}]`, 2, "", false},
		{"complexity adds up", `[{"query":"{ hello hello2: echo(text: \"a\") greeting }"},{"query":"{ hello greeting user }"},{"query":"{ hello }"}]`, 2, "complexity", true},
		{"an operation over a limit alone", `[{"query":"{ a: hello b: hello c: hello d: hello e: hello }"}]`, 0, "aliases", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := send(t, r, "POST", "/graphql", tc.body)
			items := batchReply(t, got.raw)
			if got.status != 200 {
				t.Fatalf("status %d: %s", got.status, got.raw)
			}
			for i, it := range items {
				if i < tc.ran {
					if it["data"] == nil || it["errors"] != nil {
						t.Errorf("operation %d should run: %v", i, it)
					}
					continue
				}
				errs, _ := it["errors"].([]any)
				if len(errs) != 1 || itemCode(it) != graft.CodeComplexityLimit {
					t.Errorf("operation %d should be refused: %v", i, it)
					continue
				}
				ext := errs[0].(map[string]any)["extensions"].(map[string]any)
				if ext["limitType"] != tc.limitType || (ext["batch"] == true) != tc.batch {
					t.Errorf("operation %d: extensions %v, want limitType %s, batch %v", i, ext, tc.limitType, tc.batch)
				}
			}
		})
	}
}

// TestBatchResponseBudget sends a batch of five operations whose answers
// are each close to MaxResponseBytes: the budget covers the batch as a
// whole, so the second answer is cut, the last three do not run at all,
// and the batch answer stays within the budget plus the errors.
func TestBatchResponseBudget(t *testing.T) {
	const budget = 1 << 20
	var calls atomic.Int32
	type item struct{ S string }
	b := schema.New()
	schema.Object[item](b, "Item")
	schema.Query(b, "big", func(_ context.Context, a struct{ N int }) ([]item, error) {
		calls.Add(1)
		out := make([]item, max(a.N, 0))
		for i := range out {
			out[i].S = strings.Repeat("x", 1000)
		}
		return out, nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, graft.Config{MaxBatch: 5, MaxResponseBytes: budget, Logger: quietLogger})
	if err != nil {
		t.Fatal(err)
	}
	op := `{"query":"{ big(n: 900) { s } }"}`
	got := send(t, r, "POST", "/graphql", "["+strings.Repeat(op+",", 4)+op+"]")
	items := batchReply(t, got.raw)
	t.Logf("batch answer %d bytes, %d operations ran", len(got.raw), calls.Load())
	if got.status != 200 || len(items) != 5 {
		t.Fatalf("status %d, %d items", got.status, len(items))
	}
	if len(got.raw) > budget+16<<10 {
		t.Errorf("the batch answer is %d bytes, want at most the %d-byte budget and its errors", len(got.raw), budget)
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("%d operations ran, want 2: the budget was spent during the second", n)
	}
	if items[0]["errors"] != nil || items[0]["data"] == nil {
		t.Errorf("operation 0 fits the budget: %.200v", items[0])
	}
	for i := 1; i < 5; i++ {
		if itemCode(items[i]) != graft.CodeResponseTooLarge {
			t.Errorf("operation %d: %.300v", i, fmt.Sprint(items[i]))
		}
	}
	for i := 2; i < 5; i++ {
		if items[i]["data"] != nil || itemStatus(items[i]) != 400.0 {
			t.Errorf("operation %d should not run: %.300v", i, fmt.Sprint(items[i]))
		}
	}
}
