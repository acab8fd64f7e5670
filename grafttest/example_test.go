package grafttest_test

import (
	"fmt"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/blog"
	"github.com/graftgql/graft/grafttest"
)

func newBlogRouter(t testing.TB) *graft.Router {
	t.Helper()
	s, err := blog.Schema()
	if err != nil {
		t.Fatal(err)
	}
	router, err := graft.NewRouter(s, graft.NewLayer(), graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return router
}

// The client in a test: send a query with variables, check that it
// answered without errors, and decode the data.
func Example() {
	t := &testing.T{} // in a test, the *testing.T the test receives
	c := grafttest.New(newBlogRouter(t))

	resp := c.Do(t, `query($id: ID!) { author(id: $id) { name posts(first: 1) { title } } }`, map[string]any{"id": "a1"})
	resp.NoErrors(t)
	var data struct {
		Author struct {
			Name  string
			Posts []struct{ Title string }
		}
	}
	resp.Decode(t, &data)
	fmt.Println(data.Author.Name, "wrote", data.Author.Posts[0].Title)

	bad := c.Do(t, `{ author(id: "a1") { nope } }`, nil)
	fmt.Println(bad.Status, bad.Errors[0].Code())
	// Output:
	// Author 1 wrote Post 1 by 1
	// 400 GRAPHQL_VALIDATION_FAILED
}
