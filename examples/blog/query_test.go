package blog

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/grafttest"
)

// newClient serves the blog schema with a default router.
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

func loadCases(t *testing.T) []queryCase {
	t.Helper()
	b, err := os.ReadFile("testdata/queries.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []queryCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatalf("testdata/queries.json: %v", err)
	}
	return cases
}

func TestQueries(t *testing.T) {
	c := newClient(t)
	for _, tc := range loadCases(t) {
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

// TestPageSizes counts the authors and posts that the benchmark queries
// and the default and null arguments return.
func TestPageSizes(t *testing.T) {
	c := newClient(t)
	tests := []struct {
		name           string
		query          string
		authors, posts int
	}{
		{"default first", `{ authors { posts { id } } }`, 10, 10},
		{"explicit null first", `{ authors(first: null) { posts(first: null) { id } } }`, 10, 10},
		{"q2", `{ authors(first: 50) { id name email posts(first: 10) { id title likes tags } } }`, 50, 10},
		{"clamped", `{ authors(first: 1000) { posts(first: 1000) { id } } }`, 100, 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := c.Do(t, tt.query, nil)
			resp.NoErrors(t)
			var data struct {
				Authors []struct{ Posts []json.RawMessage }
			}
			resp.Decode(t, &data)
			if len(data.Authors) != tt.authors {
				t.Fatalf("got %d authors, want %d", len(data.Authors), tt.authors)
			}
			for _, a := range data.Authors {
				if len(a.Posts) != tt.posts {
					t.Fatalf("got %d posts, want %d", len(a.Posts), tt.posts)
				}
			}
		})
	}
}
