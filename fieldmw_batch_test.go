package graft_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/schema"
)

type bmAuthor struct {
	ID   int
	Name string
}

type bmTeam struct {
	Lead *bmAuthor
}

// batchMiddlewareRouter serves authors 1, 2 and 3 with a batch field
// posts and a concurrent field bio, behind a middleware that records the
// paths it sees, refuses posts of the authors in refused, and
// upper-cases the posts it lets through. batches records the parents of
// each call of the batch function.
func batchMiddlewareRouter(t *testing.T, refused map[int]bool) (r *graft.Router, paths func() []string, batches func() [][]int) {
	t.Helper()
	var mu sync.Mutex
	var seen []string
	var calls [][]int
	b := schema.New()
	author := schema.Object[bmAuthor](b, "Author")
	schema.GroupFieldFuncNoArgs(author, "posts", func(ctx context.Context, parents []*bmAuthor) ([][]string, []error) {
		ids := make([]int, len(parents))
		out := make([][]string, len(parents))
		for i, p := range parents {
			ids[i] = p.ID
			out[i] = []string{fmt.Sprintf("post %d", p.ID)}
		}
		mu.Lock()
		calls = append(calls, ids)
		mu.Unlock()
		return out, nil
	}, schema.OfType("[String!]"))
	schema.FieldFuncNoArgs(author, "bio", func(ctx context.Context, a *bmAuthor) (string, error) {
		return fmt.Sprintf("bio %d", a.ID), nil
	}, schema.Concurrent())
	schema.QueryNoArgs(b, "authors", func(ctx context.Context) ([]*bmAuthor, error) {
		return []*bmAuthor{{1, "ann"}, {2, "bob"}, {3, "cid"}}, nil
	})
	schema.Object[bmTeam](b, "Team")
	schema.QueryNoArgs(b, "teams", func(ctx context.Context) ([]bmTeam, error) {
		return []bmTeam{{Lead: &bmAuthor{ID: 2, Name: "bob"}}, {Lead: &bmAuthor{ID: 3, Name: "cid"}}}, nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	mws := []graft.FieldMiddleware{
		{Func: func(ctx context.Context, fi *graft.FieldInfo, next func(context.Context) (any, error)) (any, error) {
			mu.Lock()
			seen = append(seen, fmt.Sprintf("%s.%s %v", fi.ParentType, fi.FieldName, fi.Path))
			mu.Unlock()
			return next(ctx)
		}},
		{Type: "Author", Field: "posts", Func: func(ctx context.Context, fi *graft.FieldInfo, next func(context.Context) (any, error)) (any, error) {
			if a, _ := fi.Parent().(*bmAuthor); a == nil || refused[a.ID] {
				return nil, graft.NewError(graft.CodeForbidden, "not your posts")
			}
			v, err := next(ctx)
			posts, _ := v.([]string)
			up := make([]string, len(posts))
			for i, p := range posts {
				up[i] = strings.ToUpper(p)
			}
			return up, err
		}},
	}
	r, err = graft.NewRouter(s, nil, graft.Config{FieldMiddleware: mws, Logger: quietLogger})
	if err != nil {
		t.Fatal(err)
	}
	paths = func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := slices.Clone(seen)
		slices.Sort(out)
		return out
	}
	batches = func() [][]int {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(calls)
	}
	return r, paths, batches
}

func TestBatchFieldMiddlewareRefusesOneParent(t *testing.T) {
	r, paths, batches := batchMiddlewareRouter(t, map[int]bool{2: true})
	res := post(t, r, `{ list: authors { name posts again: posts bio } }`)
	want := `{"errors":[` +
		`{"message":"not your posts","locations":[{"line":1,"column":24}],"path":["list",1,"posts"],"extensions":{"code":"FORBIDDEN"}},` +
		`{"message":"not your posts","locations":[{"line":1,"column":30}],"path":["list",1,"again"],"extensions":{"code":"FORBIDDEN"}}],` +
		`"data":{"list":[` +
		`{"name":"ann","posts":["POST 1"],"again":["POST 1"],"bio":"bio 1"},` +
		`{"name":"bob","posts":null,"again":null,"bio":"bio 2"},` +
		`{"name":"cid","posts":["POST 3"],"again":["POST 3"],"bio":"bio 3"}]}}`
	if res.raw != want {
		t.Fatalf("got  %s\nwant %s", res.raw, want)
	}
	if got := fmt.Sprint(batches()); got != "[[1 3]]" {
		t.Fatalf("the batch function got parents %s, want one call with [1 3]", got)
	}
	var wantPaths []string
	for i := range 3 {
		for _, f := range []string{"name", "posts", "again", "bio"} {
			field := f
			if f == "again" {
				field = "posts"
			}
			wantPaths = append(wantPaths, fmt.Sprintf("Author.%s [list %d %s]", field, i, f))
		}
	}
	wantPaths = append(wantPaths, "Query.authors [list]")
	slices.Sort(wantPaths)
	if got := paths(); !slices.Equal(got, wantPaths) {
		t.Fatalf("middleware calls\n%q\nwant\n%q", got, wantPaths)
	}
}

func TestBatchFieldMiddlewareRefusingEveryParentSkipsTheBatch(t *testing.T) {
	r, _, batches := batchMiddlewareRouter(t, map[int]bool{1: true, 2: true, 3: true})
	res := post(t, r, `{ authors { posts } }`)
	if len(res.body.Errors) != 3 || res.code(2) != graft.CodeForbidden ||
		fmt.Sprint(res.body.Errors[2]["path"]) != "[authors 2 posts]" ||
		!strings.Contains(res.raw, `"data":{"authors":[{"posts":null},{"posts":null},{"posts":null}]}`) {
		t.Fatalf("%s", res.raw)
	}
	if n := len(batches()); n != 0 {
		t.Fatalf("the batch function ran %d times, want 0", n)
	}
}

// TestMiddlewareOnPlainFieldResolvedAhead checks a plain struct field that
// leads to a batch field: it is resolved ahead of writing, its middleware
// runs once with its path, and the batch below gets the admitted parents.
func TestMiddlewareOnPlainFieldResolvedAhead(t *testing.T) {
	r, paths, batches := batchMiddlewareRouter(t, map[int]bool{2: true})
	res := post(t, r, `{ teams { lead { posts } } }`)
	want := `{"errors":[{"message":"not your posts","locations":[{"line":1,"column":18}],"path":["teams",0,"lead","posts"],"extensions":{"code":"FORBIDDEN"}}],` +
		`"data":{"teams":[{"lead":{"posts":null}},{"lead":{"posts":["POST 3"]}}]}}`
	if res.raw != want {
		t.Fatalf("got  %s\nwant %s", res.raw, want)
	}
	wantPaths := []string{"Author.posts [teams 0 lead posts]", "Author.posts [teams 1 lead posts]",
		"Query.teams [teams]", "Team.lead [teams 0 lead]", "Team.lead [teams 1 lead]"}
	if got := paths(); !slices.Equal(got, wantPaths) {
		t.Fatalf("middleware calls\n%q\nwant\n%q", got, wantPaths)
	}
	if got := fmt.Sprint(batches()); got != "[[3]]" {
		t.Fatalf("the batch function got parents %s, want one call with [3]", got)
	}
}

type bmItem struct{ ID int }

// TestBatchFieldMiddlewareWrongTypeAndPanic checks that a batch field's
// middleware returning a value of the wrong Go type, or panicking, fails
// that parent's field with an internal error at its path, and the
// others resolve.
func TestBatchFieldMiddlewareWrongTypeAndPanic(t *testing.T) {
	b := schema.New()
	item := schema.Object[bmItem](b, "Item")
	schema.GroupFieldFuncNoArgs(item, "score", func(ctx context.Context, parents []*bmItem) ([]*int, []error) {
		out := make([]*int, len(parents))
		for i, p := range parents {
			v := p.ID * 10
			out[i] = &v
		}
		return out, nil
	})
	schema.QueryNoArgs(b, "items", func(ctx context.Context) ([]bmItem, error) { return []bmItem{{1}, {2}, {3}}, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	mw := graft.FieldMiddleware{Type: "Item", Field: "score",
		Func: func(ctx context.Context, fi *graft.FieldInfo, next func(context.Context) (any, error)) (any, error) {
			v, err := next(ctx)
			switch fi.Path[1] {
			case 0:
				return "ten", err
			case 1:
				panic("middleware bug")
			}
			return v, err
		}}
	r, err := graft.NewRouter(s, nil, graft.Config{FieldMiddleware: []graft.FieldMiddleware{mw}, Logger: quietLogger})
	if err != nil {
		t.Fatal(err)
	}
	res := post(t, r, `{ items { score } }`)
	if len(res.body.Errors) != 2 || res.code(0) != graft.CodeInternalServerError || res.code(1) != graft.CodeInternalServerError ||
		fmt.Sprint(res.body.Errors[0]["path"], res.body.Errors[1]["path"]) != "[items 0 score] [items 1 score]" ||
		!strings.Contains(res.raw, `"data":{"items":[{"score":null},{"score":null},{"score":30}]}`) {
		t.Fatalf("%s", res.raw)
	}
}

// TestBatchFieldMiddlewareParksABoundedNumber: each parent's middleware
// waits in next until the batch has run, so a large batch field runs in
// chunks: never more than 256 middlewares wait at once, one batch call
// per chunk, every parent answered in order.
func TestBatchFieldMiddlewareParksABoundedNumber(t *testing.T) {
	const n = 600
	var mu sync.Mutex
	var sizes []int
	b := schema.New()
	author := schema.Object[bmAuthor](b, "Author")
	schema.GroupFieldFuncNoArgs(author, "posts", func(ctx context.Context, parents []*bmAuthor) ([]int, []error) {
		mu.Lock()
		sizes = append(sizes, len(parents))
		mu.Unlock()
		out := make([]int, len(parents))
		for i, p := range parents {
			out[i] = p.ID
		}
		return out, nil
	})
	schema.QueryNoArgs(b, "authors", func(ctx context.Context) ([]*bmAuthor, error) {
		out := make([]*bmAuthor, n)
		for i := range out {
			out[i] = &bmAuthor{ID: i}
		}
		return out, nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	var waiting, most atomic.Int32
	mw := graft.FieldMiddleware{Type: "Author", Field: "posts", Func: func(ctx context.Context, fi *graft.FieldInfo, next func(context.Context) (any, error)) (any, error) {
		w := waiting.Add(1)
		for m := most.Load(); w > m && !most.CompareAndSwap(m, w); m = most.Load() {
		}
		defer waiting.Add(-1)
		return next(ctx)
	}}
	r, err := graft.NewRouter(s, nil, graft.Config{FieldMiddleware: []graft.FieldMiddleware{mw}, Logger: quietLogger})
	if err != nil {
		t.Fatal(err)
	}
	res := post(t, r, `{ authors { posts } }`)
	var want strings.Builder
	want.WriteString(`{"data":{"authors":[`)
	for i := range n {
		if i > 0 {
			want.WriteByte(',')
		}
		fmt.Fprintf(&want, `{"posts":%d}`, i)
	}
	want.WriteString(`]}}`)
	if res.raw != want.String() {
		t.Fatalf("got %.300s", res.raw)
	}
	if fmt.Sprint(sizes) != "[256 256 88]" || most.Load() > 256 {
		t.Fatalf("batch calls of %v parents, at most %d middlewares waiting at once; want [256 256 88] and at most 256", sizes, most.Load())
	}
}
