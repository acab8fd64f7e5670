package exec_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/gqlerr"

	"github.com/graftgql/graft/examples/starwars"
	"github.com/graftgql/graft/internal/exec"
)

func TestResponseBudgetStopsExplodingLists(t *testing.T) {
	s, err := starwars.Schema()
	if err != nil {
		t.Fatal(err)
	}
	e := exec.New(s, exec.Options{})
	// Each level multiplies the response by about four: twelve levels
	// would write about 95 MB.
	query := "{ hero { name " + strings.Repeat("friends { name ", 12) + strings.Repeat("} ", 12) + "} }"
	body := run(t, context.Background(), e, query, "", nil)
	if len(body) > exec.DefaultMaxResponseBytes+(1<<20) {
		t.Fatalf("response of %d bytes passed the budget of %d", len(body), exec.DefaultMaxResponseBytes)
	}
	var resp struct {
		Errors []struct {
			Message    string
			Extensions map[string]any
		}
	}
	if err := json.Unmarshal([]byte(body), &resp); err != nil {
		t.Fatalf("response is not JSON: %v", err)
	}
	if len(resp.Errors) != 1 || resp.Errors[0].Extensions["code"] != gqlerr.ResponseTooLarge {
		t.Fatalf("errors = %+v, want one %s", resp.Errors, gqlerr.ResponseTooLarge)
	}
}
