package exec_test

import (
	"context"
	"fmt"

	"github.com/graftgql/graft/internal/gqlerr"

	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/internal/exec"
)

// A request goes through four steps: Prepare (cacheable per query text),
// Operation, CoerceVariables and Execute.
func Example() {
	s, err := blog.Schema()
	if err != nil {
		panic(err)
	}
	e := exec.New(s, exec.Options{})
	doc, errs := e.Prepare(`query Post($id: ID!) { author(id: $id) { name posts(first: 2) { title } } }`)
	if errs != nil {
		fmt.Println(string(gqlerr.AppendResponse(nil, errs, nil)))
		return
	}
	op, gerr := doc.Operation("Post")
	if gerr != nil {
		fmt.Println(gerr)
		return
	}
	vars, errs := e.CoerceVariables(op, map[string]any{"id": "a7"})
	if errs != nil {
		fmt.Println(string(gqlerr.AppendResponse(nil, errs, nil)))
		return
	}
	fmt.Println(string(e.Execute(context.Background(), op, vars, nil, nil)))
	// Output:
	// {"data":{"author":{"name":"Author 7","posts":[{"title":"Post 1 by 7"},{"title":"Post 2 by 7"}]}}}
}
