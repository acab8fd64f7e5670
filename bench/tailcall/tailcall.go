// Package tailcall is the benchmark's replica of the Tailcall benchmark's
// workload (q7): 100 posts and 10 users, served as JSON by the upstream
// service (GET /tc/posts, GET /tc/users?id=1&id=2) and queried as
//
//	{ posts { id userId title user { id name email } } }
//
// Every post's user is one of the 10, so a server that batches Post.user
// fetches each user once per request, and an object shared by many
// parents (a user every tenth post points to) recurs in the answer.
package tailcall

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// PostCount and UserCount are the sizes of the data set.
const (
	PostCount = 100
	UserCount = 10
)

// SDL is the schema every q7 server serves.
const SDL = `type Query {
  posts: [Post!]!
}

type Post {
  id: Int!
  userId: Int!
  title: String!
  body: String!
  user: User
}

type User {
  id: Int!
  name: String!
  username: String!
  email: String!
}
`

// Query is q7.
const Query = `{
  posts {
    id
    userId
    title
    user {
      id
      name
      email
    }
  }
}
`

// Post is one post as the upstream serves it.
type Post struct {
	ID     int    `json:"id"`
	UserID int    `json:"userId"`
	Title  string `json:"title"`
	Body   string `json:"body"`
}

// User is one user as the upstream serves it.
type User struct {
	ID       int    `json:"id"`
	Name     string `json:"name"`
	Username string `json:"username"`
	Email    string `json:"email"`
}

// Posts returns the 100 posts: post i (from 1) belongs to user
// (i-1)%10+1.
func Posts() []Post {
	out := make([]Post, PostCount)
	for i := range out {
		id := i + 1
		out[i] = Post{
			ID:     id,
			UserID: i%UserCount + 1,
			Title:  "Post " + strconv.Itoa(id) + ": a title of some length, as a blog's",
			Body:   fmt.Sprintf("The body of post %d, which q7 does not select: a paragraph of text the server receives from the upstream and skips, as the Tailcall benchmark's posts carry one.", id),
		}
	}
	return out
}

// Users returns the 10 users, ids 1 to 10.
func Users() []User {
	out := make([]User, UserCount)
	for i := range out {
		id := i + 1
		out[i] = User{ID: id, Name: "User " + strconv.Itoa(id), Username: "user" + strconv.Itoa(id), Email: "user" + strconv.Itoa(id) + "@example.com"}
	}
	return out
}

type q7User struct {
	ID    int    `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email"`
}

type q7Post struct {
	ID     int     `json:"id"`
	UserID int     `json:"userId"`
	Title  string  `json:"title"`
	User   *q7User `json:"user"`
}

// Expected returns the exact answer to q7, keys in selection order.
func Expected() []byte {
	users := Users()
	var out struct {
		Data struct {
			Posts []q7Post `json:"posts"`
		} `json:"data"`
	}
	for _, p := range Posts() {
		u := users[p.UserID-1]
		out.Data.Posts = append(out.Data.Posts, q7Post{p.ID, p.UserID, p.Title, &q7User{u.ID, u.Name, u.Email}})
	}
	b, err := json.Marshal(out)
	if err != nil {
		panic(err) // plain structs always marshal
	}
	return b
}
