package starwars

import (
	"context"
	"sync"
	"testing"

	"github.com/graftgql/graft/internal/exec"
)

// TestConcurrentExecution runs one prepared document from many goroutines
// against one schema; run with -race it shows the built schema is safe to
// share.
func TestConcurrentExecution(t *testing.T) {
	s, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	e := exec.New(s, exec.Options{})
	doc, errs := e.Prepare(`query ($ep: Episode) { hero(episode: $ep) { __typename name friends { name ... on Human { homePlanet } } } }`)
	if errs != nil {
		t.Fatal(errs)
	}
	op, gerr := doc.Operation("")
	if gerr != nil {
		t.Fatal(gerr)
	}
	want := map[string]string{
		"EMPIRE": `{"data":{"hero":{"__typename":"Human","name":"Luke Skywalker","friends":[{"name":"Han Solo","homePlanet":null},{"name":"Leia Organa","homePlanet":"Alderaan"},{"name":"C-3PO"},{"name":"R2-D2"}]}}}`,
		"JEDI":   `{"data":{"hero":{"__typename":"Droid","name":"R2-D2","friends":[{"name":"Luke Skywalker","homePlanet":"Tatooine"},{"name":"Han Solo","homePlanet":null},{"name":"Leia Organa","homePlanet":"Alderaan"}]}}}`,
	}
	var wg sync.WaitGroup
	results := make([]string, 16)
	episodes := make([]string, 16)
	for i := range results {
		episodes[i] = "JEDI"
		if i%2 == 0 {
			episodes[i] = "EMPIRE"
		}
		wg.Go(func() {
			vars, errs := e.CoerceVariables(op, map[string]any{"ep": episodes[i]})
			if errs != nil {
				results[i] = errs.Error()
				return
			}
			for range 20 {
				results[i] = string(e.Execute(context.Background(), op, vars, nil, nil))
			}
		})
	}
	wg.Wait()
	for i, got := range results {
		if got != want[episodes[i]] {
			t.Errorf("goroutine %d (%s):\n got %s\nwant %s", i, episodes[i], got, want[episodes[i]])
		}
	}
}
