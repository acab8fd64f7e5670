package blog

import (
	"context"
	"testing"

	"github.com/graftgql/graft/internal/exec"
)

func TestScratchExec(t *testing.T) {
	s, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	e := exec.New(s, exec.Options{})
	for _, q := range []string{`{ hello }`, `{ authors(first: 2) { id name email posts(first: 2) { id title likes tags } } }`, `query A($id: ID!) { author(id: $id) { ...F posts(first: 20) { ...P } } } fragment F on Author { id name } fragment P on Post { id title body likes }`} {
		d, errs := e.Prepare(q)
		if errs != nil {
			t.Fatal(errs)
		}
		op, gerr := d.Operation("")
		if gerr != nil {
			t.Fatal(gerr)
		}
		vars, errs := e.CoerceVariables(op, map[string]any{"id": "a42"})
		if errs != nil {
			t.Fatal(errs)
		}
		out := e.Execute(context.Background(), op, vars, nil, nil)
		t.Logf("%.600s", out)
	}
}
