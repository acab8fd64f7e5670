package upstream

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/graftgql/graft/bench/data"
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
// building it), and no more than maxAnswers answers are kept.
func TestServiceKeepsAnswersBounded(t *testing.T) {
	svc, c := serveService(t)
	ctx := context.Background()
	a, errA := c.Get(ctx, "/posts", PostsQuery([]string{"a2", "a5"}, 3))
	b, errB := c.Get(ctx, "/posts", PostsQuery([]string{"a2", "a5"}, 3))
	if errA != nil || errB != nil || string(a) != string(b) || len(a) < 1000 {
		t.Fatalf("two calls: %d and %d bytes, %v, %v", len(a), len(b), errA, errB)
	}
	if n := svc.Calls(); n != 2 {
		t.Errorf("calls = %d, want 2", n)
	}
	for i := range maxAnswers + 20 {
		if _, err := c.Get(ctx, "/authors", AuthorsQuery(i%data.AuthorCount+1+data.AuthorCount*(i/data.AuthorCount))); err != nil {
			t.Fatal(err)
		}
	}
	svc.keepMu.Lock()
	n, size := svc.kept, svc.keptBytes
	svc.keepMu.Unlock()
	if n != maxAnswers || size > maxAnswerBytes {
		t.Errorf("%d answers of %d bytes kept, want the bound %d and at most %d bytes", n, size, maxAnswers, maxAnswerBytes)
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
