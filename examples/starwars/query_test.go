package starwars

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/grafttest"
)

// newClient serves the Star Wars schema with a default router.
func newClient(t *testing.T) *grafttest.Client {
	t.Helper()
	s, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, graft.NewLayer(), graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return grafttest.New(r)
}

// queryCase is one row of testdata/queries.json: a query, its variables
// and the exact response body. cmd/graft's tests run the same file
// against its default limits.
type queryCase struct {
	Name      string          `json:"name"`
	Query     string          `json:"query"`
	Variables map[string]any  `json:"variables"`
	Want      json.RawMessage `json:"want"`
}

// TestStarWarsQueries runs the query cases of graphql-js's Star Wars tests
// (starWarsQuery-test) and a few more, held in testdata/queries.json.
func TestStarWarsQueries(t *testing.T) {
	b, err := os.ReadFile("testdata/queries.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []queryCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatalf("testdata/queries.json: %v", err)
	}
	c := newClient(t)
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			var want bytes.Buffer
			if err := json.Compact(&want, tc.Want); err != nil {
				t.Fatal(err)
			}
			resp := c.Do(t, tc.Query, tc.Variables)
			if resp.Status != 200 || string(resp.Body) != want.String() {
				t.Errorf("response %d\n got %s\nwant %s", resp.Status, resp.Body, want.String())
			}
		})
	}
}
