package workload

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/graftgql/graft/internal/testenv"
)

// TestMatchesShared keeps the embedded copy equal to ../shared/bench.
func TestMatchesShared(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "bench")
	if _, err := os.Stat(dir); err != nil {
		testenv.Missing(t, "the shared workload is not beside the repository at "+dir)
	}
	embedded := map[string]string{"schema.graphql": SDL, "q1.graphql": Q1, "q2.graphql": Q2, "q3.graphql": Q3,
		"q3.variables.json": string(Q3Variables), "q4.graphql": Q4, "q5.graphql": Q5, "q6.graphql": Q6}
	for name, got := range embedded {
		want, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s differs from the shared workload", name)
		}
	}
}
