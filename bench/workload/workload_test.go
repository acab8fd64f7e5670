package workload

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestMatchesShared keeps the embedded copy equal to ../shared/bench when
// that folder is beside the repository.
func TestMatchesShared(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "bench")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared workload not found at %s", dir)
	}
	for _, name := range []string{"schema.graphql", "q1.graphql", "q2.graphql", "q3.graphql", "q3.variables.json", "q4.graphql"} {
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("%s differs from the shared workload", name)
			}
		})
	}
}

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
