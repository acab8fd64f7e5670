package workload

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/graftgql/graft/internal/testenv"
)

func TestQueries(t *testing.T) {
	qs := Queries()
	if len(qs) != 4 {
		t.Fatalf("got %d queries, want 4", len(qs))
	}
	for _, q := range qs {
		t.Run(q.Name, func(t *testing.T) {
			var body map[string]any
			if err := json.Unmarshal(q.Body(), &body); err != nil {
				t.Fatalf("body is not JSON: %v", err)
			}
			if body["query"] != q.Text {
				t.Errorf("query = %v, want the document", body["query"])
			}
		})
	}
	if qs[2].Variables["id"] != "a42" || qs[2].OperationName != "A" {
		t.Errorf("q3 = %+v, want operation A with id a42", qs[2])
	}
}

func TestPersistedQueries(t *testing.T) {
	for _, q := range PersistedQueries() {
		t.Run(q.Name, func(t *testing.T) {
			var hashOnly, register struct {
				Query      *string `json:"query"`
				Extensions struct {
					PersistedQuery struct {
						Version    int    `json:"version"`
						Sha256Hash string `json:"sha256Hash"`
					} `json:"persistedQuery"`
				} `json:"extensions"`
			}
			if err := json.Unmarshal(q.Body(), &hashOnly); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(q.RegisterBody(), &register); err != nil {
				t.Fatal(err)
			}
			if hashOnly.Query != nil {
				t.Errorf("hash-only body carries the query")
			}
			if register.Query == nil || *register.Query != q.Text {
				t.Errorf("register body lacks the query")
			}
			for _, pq := range []int{hashOnly.Extensions.PersistedQuery.Version, register.Extensions.PersistedQuery.Version} {
				if pq != 1 {
					t.Errorf("version = %d, want 1", pq)
				}
			}
			if h := hashOnly.Extensions.PersistedQuery.Sha256Hash; h != q.Hash() || len(h) != 64 {
				t.Errorf("hash = %q, want %q", h, q.Hash())
			}
			if q.Base+"-apq" != q.Name {
				t.Errorf("base %q of %q", q.Base, q.Name)
			}
		})
	}
	if got := (Query{Text: "{ hello }"}).Hash(); got != "001c3174e099bd72b729d0c0a529ba9f5a740c446e2a6e1d71b283cb84ec3065" {
		t.Errorf("Hash() = %s", got)
	}
}

// TestUpstreamCopyMatchesShared keeps this folder's copy of q5 and q6 equal
// to ../shared/bench.
func TestUpstreamCopyMatchesShared(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "bench")
	if _, err := os.Stat(dir); err != nil {
		testenv.Missing(t, "the shared workload is not beside the repository at "+dir)
	}
	for _, q := range UpstreamQueries() {
		if q.Tailcall {
			// q7 is this module's own (package tailcall).
			continue
		}
		want, err := os.ReadFile(filepath.Join(dir, q.Name+".graphql"))
		if err != nil {
			t.Fatal(err)
		}
		if q.Text != string(want) {
			t.Errorf("%s differs from %s", q.Name, filepath.Join(dir, q.Name+".graphql"))
		}
		if !q.Upstream {
			t.Errorf("%s not marked Upstream", q.Name)
		}
	}
}
