package schema_test

import (
	"context"
	"fmt"

	"github.com/graftgql/graft/schema"
)

type ExamplePost struct {
	ID    schema.ID
	Title string `description:"The headline."`
	Draft bool   `graphql:"-"`
}

type ExamplePostsArgs struct {
	First *int `default:"10" description:"How many posts."`
}

func Example() {
	posts := []ExamplePost{{ID: "1", Title: "Hello"}}

	b := schema.New()
	schema.Object[ExamplePost](b, "Post", schema.Description("A blog post."))
	schema.Query(b, "posts", func(_ context.Context, args ExamplePostsArgs) ([]ExamplePost, error) {
		n := 10 // an explicit null leaves First nil
		if args.First != nil {
			n = *args.First
		}
		return posts[:min(len(posts), max(n, 0))], nil
	})
	s, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s.SDL())
	// Output:
	// """A blog post."""
	// type Post {
	//   id: ID!
	//   """The headline."""
	//   title: String!
	// }
	//
	// type Query {
	//   posts(
	//     """How many posts."""
	//     first: Int = 10
	//   ): [Post!]!
	// }
}
