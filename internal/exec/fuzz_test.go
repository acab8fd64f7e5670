package exec_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/internal/exec"
)

// FuzzExecute feeds arbitrary documents through Prepare and Execute on the
// blog schema: nothing may panic and every response must be valid JSON.
func FuzzExecute(f *testing.F) {
	for _, seed := range []string{
		`{ hello }`,
		`{ authors(first: 2) { id name posts(first: 1) { title tags } } }`,
		`query A($id: ID!) { author(id: $id) { ...F } } fragment F on Author { id name }`,
		`{ __schema { types { name fields { name } } } }`,
		`{ __type(name: "Author") { fields { name type { name kind ofType { name } } } } }`,
		`query Q($s: Boolean!) { hello @skip(if: $s) authors { id @include(if: $s) } }`,
		`{ authors(first: 2) { id @skip(if: true) posts(first: 1) { ... @include(if: false) { title } } } }`,
	} {
		f.Add(seed, `{"id":"a1","s":true}`)
	}
	s, err := blog.Schema()
	if err != nil {
		f.Fatal(err)
	}
	e := exec.New(s, exec.Options{Logger: slog.New(slog.DiscardHandler), MaxTokens: 2000})
	f.Fuzz(func(t *testing.T, query, rawVars string) {
		doc, errs := e.Prepare(query)
		if errs != nil {
			return
		}
		var vars map[string]any
		_ = json.Unmarshal([]byte(rawVars), &vars)
		for _, op := range doc.AST().Operations {
			o, gerr := doc.Operation(op.Name)
			if gerr != nil {
				continue
			}
			coerced, verrs := e.CoerceVariables(o, vars)
			if verrs != nil {
				continue
			}
			out := e.Execute(context.Background(), o, coerced, nil, nil)
			if !json.Valid(out) {
				t.Fatalf("invalid JSON for %q: %s", query, out)
			}
		}
	})
}
