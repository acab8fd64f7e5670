// Package data generates the benchmark data set of ../shared/bench once,
// deterministically, and gives every peer the same read-only view of it:
// 100 authors with 20 posts each.
package data

import (
	"strconv"
	"sync"
)

// Body is the fixed 200-character body of every post.
const Body = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi, ut."

const (
	// AuthorCount is how many authors the data set holds.
	AuthorCount = 100
	// PostsPerAuthor is how many posts each author has.
	PostsPerAuthor = 20
	// DefaultFirst is the default of both first arguments.
	DefaultFirst = 10
)

// Author is one author. Posts holds all of the author's posts in order;
// PostsFirst applies the posts(first) argument.
type Author struct {
	ID    string
	Name  string
	Email string
	Posts []*Post
}

// Post is one post.
type Post struct {
	ID    string
	Title string
	Body  string
	Likes int
	Tags  []string
}

// Set is the whole data set, with authors in id order.
type Set struct {
	Authors []*Author
	byID    map[string]*Author
}

var (
	once   sync.Once
	shared *Set
)

// Shared returns the data set, built on first use. It must not be modified.
func Shared() *Set {
	once.Do(func() { shared = Generate() })
	return shared
}

// Generate builds a fresh data set.
func Generate() *Set {
	s := &Set{byID: make(map[string]*Author, AuthorCount)}
	for i := 1; i <= AuthorCount; i++ {
		is := strconv.Itoa(i)
		a := &Author{ID: "a" + is, Name: "Author " + is, Email: "author" + is + "@example.com"}
		for j := 1; j <= PostsPerAuthor; j++ {
			js := strconv.Itoa(j)
			a.Posts = append(a.Posts, &Post{
				ID:    "p" + is + "-" + js,
				Title: "Post " + js + " by " + is,
				Body:  Body,
				Likes: (i*31 + j) % 1000,
				Tags:  []string{"go", "graphql", "t" + strconv.Itoa(j%5)},
			})
		}
		s.Authors = append(s.Authors, a)
		s.byID[a.ID] = a
	}
	return s
}

// Clamp applies a first argument: nil means the default, and the value is
// clamped to 0..max.
func Clamp(first *int, max int) int {
	if first == nil {
		return DefaultFirst
	}
	n := *first
	if n < 0 {
		return 0
	}
	if n > max {
		return max
	}
	return n
}

// AuthorsFirst answers authors(first).
func (s *Set) AuthorsFirst(first *int) []*Author {
	return s.Authors[:Clamp(first, len(s.Authors))]
}

// Author answers author(id): nil when no author has that id.
func (s *Set) Author(id string) *Author {
	return s.byID[id]
}

// PostsFirst answers posts(first) on a.
func (a *Author) PostsFirst(first *int) []*Post {
	return a.Posts[:Clamp(first, len(a.Posts))]
}
