package upstream

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/tailcall"
)

func TestService(t *testing.T) {
	svc, c := serveService(t)
	ctx := context.Background()

	var first []authorOut
	if err := c.GetJSON(ctx, "/authors", AuthorsQuery(3), &first); err != nil {
		t.Fatal(err)
	}
	if len(first) != 3 || first[0] != (authorOut{"a1", "Author 1", "author1@example.com"}) || first[2].ID != "a3" {
		t.Errorf("authors?first=3 = %+v", first)
	}
	var named []authorOut
	if err := c.GetJSON(ctx, "/authors", AuthorsByIDQuery([]string{"a7", "nope", "a1"}), &named); err != nil {
		t.Fatal(err)
	}
	if len(named) != 2 || named[0].ID != "a7" || named[1].ID != "a1" {
		t.Errorf("authors?id=a7&id=nope&id=a1 = %+v, want a7 then a1", named)
	}
	var posts map[string][]postOut
	if err := c.GetJSON(ctx, "/posts", PostsQuery([]string{"a2", "a5"}, 2), &posts); err != nil {
		t.Fatal(err)
	}
	want := postOut{"p5-2", "Post 2 by 5", data.Body, (5*31 + 2) % 1000, []string{"go", "graphql", "t2"}}
	if len(posts) != 2 || len(posts["a2"]) != 2 || len(posts["a5"]) != 2 {
		t.Fatalf("posts = %+v", posts)
	}
	if got := posts["a5"][1]; got.ID != want.ID || got.Title != want.Title || got.Body != want.Body || got.Likes != want.Likes || len(got.Tags) != 3 || got.Tags[2] != "t2" {
		t.Errorf("posts[a5][1] = %+v, want %+v", got, want)
	}
	var clamped []authorOut
	if err := c.GetJSON(ctx, "/authors", AuthorsQuery(500), &clamped); err != nil || len(clamped) != data.AuthorCount {
		t.Errorf("authors?first=500: %d authors, err %v", len(clamped), err)
	}
	n, err := c.Calls(ctx)
	if err != nil || n != 4 {
		t.Errorf("calls = %d, %v; want 4 (stats calls are not counted)", n, err)
	}
	if err := c.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if svc.Calls() != 0 {
		t.Errorf("calls after reset = %d", svc.Calls())
	}
	if _, err := c.Get(ctx, "/nope", nil); err == nil {
		t.Error("no error for an unknown path")
	}
	res, err := http.Get(c.Base() + "/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var st map[string]int
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil || st["calls"] != 0 {
		t.Errorf("GET /stats = %v, %v", st, err)
	}
}

// TestServiceKeepsAnswersBounded: a repeated call gets the same bytes and
// is still counted (and waits the latency: the kept answer only saves
// building it); no more than maxAnswers answers are kept, and when the
// store is full a new answer is still kept, so the calls of the server
// measured last are answered from it whatever came before.
func TestServiceKeepsAnswersBounded(t *testing.T) {
	svc, c := serveService(t)
	ctx := context.Background()
	a, errA := c.Get(ctx, "/posts", PostsQuery([]string{"a2", "a5"}, 3))
	b, errB := c.Get(ctx, "/posts", PostsQuery([]string{"a2", "a5"}, 3))
	if errA != nil || errB != nil || string(a) != string(b) || len(a) < 1000 {
		t.Fatalf("two calls: %d and %d bytes, %v, %v", len(a), len(b), errA, errB)
	}
	if n, built := svc.Calls(), svc.built.Load(); n != 2 || built != 1 {
		t.Errorf("calls = %d, built = %d; want 2 calls and 1 answer built", n, built)
	}
	for i := range maxAnswers + 20 {
		if _, err := c.Get(ctx, "/authors", AuthorsQuery(i%data.AuthorCount+1+data.AuthorCount*(i/data.AuthorCount))); err != nil {
			t.Fatal(err)
		}
		svc.keepMu.Lock()
		n, size := svc.kept, svc.keptBytes
		svc.keepMu.Unlock()
		if n < 1 || n > maxAnswers || size > maxAnswerBytes {
			t.Fatalf("after %d answers, %d of %d bytes kept, want 1 to %d and at most %d bytes", i+1, n, size, maxAnswers, maxAnswerBytes)
		}
	}
	built := svc.built.Load()
	for range 3 {
		if _, err := c.Get(ctx, "/posts", PostsQuery([]string{"a9", "a1", "a9"}, 20)); err != nil {
			t.Fatal(err)
		}
	}
	if n := svc.built.Load() - built; n != 1 {
		t.Errorf("a full store: three calls built %d answers, want 1", n)
	}
}

// serveService runs a Service with no latency and returns it with a
// client.
func serveService(t *testing.T) (*Service, *Client) {
	t.Helper()
	svc := New(data.Generate(), 0)
	srv := httptest.NewServer(svc)
	t.Cleanup(srv.Close)
	return svc, NewClient(srv.URL)
}

// TestPostsAnswerIsBuiltInOneBuffer: the posts answer skips unknown and
// repeated authors, keeps the order asked, and fills exactly the buffer
// sized for it.
func TestPostsAnswerIsBuiltInOneBuffer(t *testing.T) {
	svc := New(data.Generate(), 0)
	for _, first := range []int{0, 1, 20} {
		r := httptest.NewRequest(http.MethodGet, "/posts?"+PostsQuery([]string{"a9", "nope", "a1", "a9"}, first).Encode(), nil)
		b := svc.postsAnswer(r)
		if len(b) != cap(b) {
			t.Errorf("first=%d: %d bytes in a buffer of %d", first, len(b), cap(b))
		}
		var posts map[string][]postOut
		if err := json.Unmarshal(b, &posts); err != nil {
			t.Fatalf("first=%d: %v in %s", first, err, b)
		}
		if len(posts) != 2 || len(posts["a9"]) != first || len(posts["a1"]) != first || !strings.HasPrefix(string(b), `{"a9":[`) {
			t.Errorf("first=%d: %.80s…", first, b)
		}
	}
}

// TestTailcallEndpoints: q7's posts and users, the users in the order
// asked without unknown ids, each call counted.
func TestTailcallEndpoints(t *testing.T) {
	svc, c := serveService(t)
	ctx := context.Background()
	var posts []tailcall.Post
	if err := c.GetJSON(ctx, "/tc/posts", nil, &posts); err != nil {
		t.Fatal(err)
	}
	if len(posts) != tailcall.PostCount || posts[0].ID != 1 || posts[0].UserID != 1 || posts[99].UserID != 10 || posts[10].UserID != 1 {
		t.Errorf("posts: %d, first %+v, last %+v", len(posts), posts[0], posts[len(posts)-1])
	}
	var users []tailcall.User
	if err := c.GetJSON(ctx, "/tc/users", UsersQuery([]int{3, 99, 1}), &users); err != nil {
		t.Fatal(err)
	}
	if len(users) != 2 || users[0] != (tailcall.User{ID: 3, Name: "User 3", Username: "user3", Email: "user3@example.com"}) || users[1].ID != 1 {
		t.Errorf("users?id=3&id=99&id=1 = %+v, want 3 then 1", users)
	}
	if n := svc.Calls(); n != 2 {
		t.Errorf("calls = %d, want 2", n)
	}
}
