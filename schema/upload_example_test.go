package schema_test

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/schema"
)

// ExampleUpload declares a mutation taking a file. Over HTTP the file
// comes from a multipart request; here NewUpload makes one, as a test of
// the resolver would, and Router.Execute runs the mutation.
func ExampleUpload() {
	b := schema.New()
	schema.QueryNoArgs(b, "health", func(context.Context) (string, error) { return "ok", nil })
	schema.Mutation(b, "wordCount", func(_ context.Context, a struct{ File schema.Upload }) (int, error) {
		text, err := io.ReadAll(a.File.Open())
		if err != nil {
			return 0, err
		}
		return len(strings.Fields(string(text))), nil
	})
	s, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Contains(s.SDL(), "wordCount(file: Upload!): Int!"))

	r, err := graft.NewRouter(s, nil, graft.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	text := "three little words"
	file := schema.NewUpload("words.txt", "text/plain", int64(len(text)), strings.NewReader(text))
	_, body := r.Execute(context.Background(), graft.Request{
		Query:     `mutation($f: Upload!) { wordCount(file: $f) }`,
		Variables: map[string]any{"f": file},
	})
	fmt.Println(string(body))
	fmt.Println(r.AcceptsUploads())
	// Output:
	// true
	// {"data":{"wordCount":3}}
	// true
}
