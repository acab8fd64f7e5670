// Package blog is the benchmark schema of graft: authors with posts, the
// workload that graft's benchmarks and the peer comparison in bench/ run.
// The data is generated deterministically once, as described in the
// benchmark workload: 100 authors with 20 posts each.
package blog

import (
	"context"
	"strconv"
	"sync"

	"github.com/graftgql/graft/schema"
)

// Body is the fixed body of every post.
const Body = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi, ut."

// Sizes of the generated data set.
const (
	NumAuthors     = 100
	PostsPerAuthor = 20
)

// Author is a blog author.
type Author struct {
	ID    schema.ID
	Name  string
	Email string
	posts []Post
}

// Post is a blog post.
type Post struct {
	ID    schema.ID
	Title string
	Body  string
	Likes int
	Tags  []string
}

// PageArgs are the arguments of the paginated fields: first defaults to
// 10, and an explicit null behaves like an omitted argument.
type PageArgs struct {
	First *int `default:"10"`
}

// AuthorArgs are the arguments of Query.author.
type AuthorArgs struct {
	ID schema.ID
}

// Data is the generated data set.
type Data struct {
	Authors []Author
	byID    map[schema.ID]*Author
}

var data = sync.OnceValue(generate)

// Dataset returns the generated data set, shared and read-only.
func Dataset() *Data { return data() }

func generate() *Data {
	d := &Data{Authors: make([]Author, NumAuthors), byID: make(map[schema.ID]*Author, NumAuthors)}
	for i := 1; i <= NumAuthors; i++ {
		is := strconv.Itoa(i)
		a := &d.Authors[i-1]
		*a = Author{ID: schema.ID("a" + is), Name: "Author " + is, Email: "author" + is + "@example.com",
			posts: make([]Post, PostsPerAuthor)}
		for j := 1; j <= PostsPerAuthor; j++ {
			js := strconv.Itoa(j)
			a.posts[j-1] = Post{
				ID:    schema.ID("p" + is + "-" + js),
				Title: "Post " + js + " by " + is,
				Body:  Body,
				Likes: (i*31 + j) % 1000,
				Tags:  []string{"go", "graphql", "t" + strconv.Itoa(j%5)},
			}
		}
		d.byID[a.ID] = a
	}
	return d
}

// page returns the count a first argument asks for: the default when it
// is null, clamped to 0..max.
func page(first *int, limit int) int {
	n := 10
	if first != nil {
		n = *first
	}
	return min(max(n, 0), limit)
}

// pageCost is the cost of a paginated field: 1 plus its children's cost
// for each item of the page the arguments ask for, so that complexity
// limits see `first: 50` as fifty items.
func pageCost(limit int) schema.CostFunc {
	return func(args map[string]any, childCost int) int {
		var first *int
		switch v := args["first"].(type) {
		case int64:
			n := int(max(min(v, int64(limit)), -1))
			first = &n
		case int:
			first = &v
		}
		return 1 + page(first, limit)*childCost
	}
}

// NewBuilder returns a builder holding the blog schema, ready to Build or
// to extend. The paginated fields declare a cost per item (see pageCost).
// Cache hints let GET answers carry Cache-Control: the dataset is
// static, so authors and posts may be cached by shared caches for a
// minute, and hello for an hour.
func NewBuilder() *schema.Builder {
	b := schema.New()
	d := Dataset()
	schema.QueryNoArgs(b, "hello", func(context.Context) (string, error) { return "world", nil }, schema.CacheControl(3600, schema.CachePublic))
	schema.Query(b, "authors", func(_ context.Context, args PageArgs) ([]Author, error) {
		return d.Authors[:page(args.First, NumAuthors)], nil
	}, schema.CostFn(pageCost(NumAuthors)), schema.CacheControl(60, schema.CachePublic))
	schema.Query(b, "author", func(_ context.Context, args AuthorArgs) (*Author, error) {
		return d.byID[args.ID], nil
	}, schema.CacheControl(60, schema.CachePublic))
	author := schema.Object[Author](b, "Author", schema.CacheControl(60, schema.CachePublic))
	// Author.posts is a batch field: one call receives every author whose
	// posts the query selects at that place of the response.
	schema.GroupFieldFunc(author, "posts", func(_ context.Context, authors []*Author, args PageArgs) ([][]Post, []error) {
		n := page(args.First, PostsPerAuthor)
		out := make([][]Post, len(authors))
		for i, a := range authors {
			out[i] = a.posts[:n]
		}
		return out, nil
	}, schema.CostFn(pageCost(PostsPerAuthor)))
	schema.Object[Post](b, "Post", schema.CacheControl(60, schema.CachePublic))
	return b
}

// Schema builds the blog schema.
func Schema() (*schema.Schema, error) {
	return NewBuilder().Build()
}
