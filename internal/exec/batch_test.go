package exec_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/loader"
	"github.com/graftgql/graft/schema"
)

// The press schema exercises batch resolvers and loaders: posts with an
// author and comments, comments with an author, a Relay-style feed, an
// interface and a union over posts and comments.

type pAuthor struct {
	ID   string
	Name string
}

type pPost struct {
	ID       string
	Title    string
	authorID string
}

type pComment struct {
	ID       string
	Text     string
	authorID string
	postID   string
}

type pEdge struct {
	Cursor string
	Node   *pPost
}

type pFeed struct {
	Edges []pEdge
}

// Authored is the Go type of the interface, Entry of the union.
type Authored interface{ authored() }

// Entry is the Go type of the union of posts and comments.
type Entry interface{ authored() }

func (*pPost) authored()    {}
func (*pComment) authored() {}

type pFirst struct {
	First *int `default:"2"`
}

// batchCall is one recorded call of a batch resolver or loader.
type batchCall struct {
	field string
	keys  []string
	args  string
}

type press struct {
	mu       sync.Mutex
	calls    []batchCall
	authors  map[string]*pAuthor
	posts    []*pPost
	comments map[string][]pComment
	// hooks a test sets to change behaviour.
	failAuthor string // Post.author fails for this author id
	panicOn    string // the batch field that panics
	block      chan struct{}
	started    chan struct{}
	meet       *sync.WaitGroup
}

func (p *press) record(field string, keys []string, args string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls = append(p.calls, batchCall{field: field, keys: slices.Clone(keys), args: args})
}

// callsOf returns the recorded calls of field, keys sorted.
func (p *press) callsOf(field string) []batchCall {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []batchCall
	for _, c := range p.calls {
		if c.field == field {
			c.keys = slices.Clone(c.keys)
			slices.Sort(c.keys)
			out = append(out, c)
		}
	}
	return out
}

type loaderKey struct{}

func authorLoader(ctx context.Context) *loader.Loader[string, *pAuthor] {
	return ctx.Value(loaderKey{}).(*loader.Loader[string, *pAuthor])
}

func newPress(t testing.TB, opts exec.Options) (*press, *exec.Engine) {
	t.Helper()
	p := &press{authors: map[string]*pAuthor{}, comments: map[string][]pComment{}}
	for i := 1; i <= 3; i++ {
		id := fmt.Sprintf("a%d", i)
		p.authors[id] = &pAuthor{ID: id, Name: "Author " + id}
	}
	for i := 1; i <= 4; i++ {
		post := &pPost{ID: fmt.Sprintf("p%d", i), Title: fmt.Sprintf("Post %d", i), authorID: fmt.Sprintf("a%d", (i-1)%3+1)}
		p.posts = append(p.posts, post)
		for j := 1; j <= 2; j++ {
			p.comments[post.ID] = append(p.comments[post.ID], pComment{
				ID: fmt.Sprintf("c%d-%d", i, j), Text: "hi", postID: post.ID, authorID: fmt.Sprintf("a%d", (i+j)%3+1)})
		}
	}
	b := schema.New()
	author := schema.Object[pAuthor](b, "Author")
	schema.GroupFieldFuncNoArgs(author, "peers", func(ctx context.Context, as []*pAuthor) ([][]*pAuthor, []error) {
		ids := make([]string, len(as))
		for i, a := range as {
			ids[i] = a.ID
		}
		p.record("Author.peers", ids, "")
		all := []*pAuthor{p.authors["a1"], p.authors["a2"], p.authors["a3"]}
		out := make([][]*pAuthor, len(as))
		for i := range out {
			out[i] = all
		}
		return out, nil
	})
	schema.Interface[Authored](b, "Authored").Field("author", "Author")
	post := schema.Object[pPost](b, "Post", schema.Implements("Authored"))
	comment := schema.Object[pComment](b, "Comment", schema.Implements("Authored"))
	schema.Union[Entry](b, "Entry", []string{"Post", "Comment"})
	schema.Object[pEdge](b, "Edge")
	schema.Object[pFeed](b, "Feed")

	authorsOf := func(ctx context.Context, field string, ids []string) ([]*pAuthor, []error) {
		p.record(field, ids, "")
		if p.panicOn == field {
			panic("batch exploded")
		}
		if p.meet != nil {
			p.meet.Done()
			done := make(chan struct{})
			go func() { p.meet.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				return nil, []error{errors.New("batches did not run concurrently")}
			}
		}
		if p.block != nil {
			close(p.started)
			<-ctx.Done()
			return nil, []error{ctx.Err()}
		}
		out := make([]*pAuthor, len(ids))
		var errs []error
		for i, id := range ids {
			if id == p.failAuthor {
				if errs == nil {
					errs = make([]error, len(ids))
				}
				errs[i] = fmt.Errorf("author %s is unavailable", id)
				continue
			}
			out[i] = p.authors[id]
		}
		return out, errs
	}
	schema.GroupFieldFuncNoArgs(post, "author", func(ctx context.Context, posts []*pPost) ([]*pAuthor, []error) {
		ids := make([]string, len(posts))
		for i, x := range posts {
			ids[i] = x.authorID
		}
		return authorsOf(ctx, "Post.author", ids)
	})
	schema.GroupFieldFuncNoArgs(post, "strictAuthor", func(ctx context.Context, posts []*pPost) ([]*pAuthor, []error) {
		ids := make([]string, len(posts))
		for i, x := range posts {
			ids[i] = x.authorID
		}
		return authorsOf(ctx, "Post.strictAuthor", ids)
	}, schema.OfType("Author!"))
	schema.GroupFieldFunc(post, "comments", func(ctx context.Context, posts []*pPost, a pFirst) ([][]pComment, []error) {
		ids := make([]string, len(posts))
		for i, x := range posts {
			ids[i] = x.ID
		}
		p.record("Post.comments", ids, fmt.Sprint(*a.First))
		if p.panicOn == "Post.comments" {
			panic("comments exploded")
		}
		if p.meet != nil {
			p.meet.Done()
			p.meet.Wait()
		}
		out := make([][]pComment, len(posts))
		for i, x := range posts {
			cs := p.comments[x.ID]
			out[i] = cs[:min(*a.First, len(cs))]
		}
		return out, nil
	}, schema.Cost(7))
	schema.GroupFieldFuncNoArgs(comment, "author", func(ctx context.Context, cs []*pComment) ([]*pAuthor, []error) {
		ids := make([]string, len(cs))
		for i, x := range cs {
			ids[i] = x.authorID
		}
		return authorsOf(ctx, "Comment.author", ids)
	})
	schema.GroupFieldFuncNoArgs(comment, "short", func(ctx context.Context, cs []*pComment) ([]string, []error) {
		return nil, []error{errors.New("too few results")}
	})
	schema.GroupFieldFuncNoArgs(comment, "wrongCount", func(ctx context.Context, cs []*pComment) ([]string, []error) {
		return []string{"only one"}, nil
	})
	// Post.writer and Comment.writer read the author through a loader.
	schema.FieldFuncNoArgs(post, "writer", func(ctx context.Context, x *pPost) (*pAuthor, error) {
		return authorLoader(ctx).Load(ctx, x.authorID)
	}, schema.Concurrent())
	schema.FieldFuncNoArgs(comment, "writer", func(ctx context.Context, x *pComment) (*pAuthor, error) {
		return authorLoader(ctx).Load(ctx, x.authorID)
	}, schema.Concurrent())
	schema.FieldFuncNoArgs(post, "slowWriter", func(ctx context.Context, x *pPost) (*pAuthor, error) {
		return authorLoader(ctx).Load(ctx, x.authorID)
	})

	schema.QueryNoArgs(b, "posts", func(context.Context) ([]*pPost, error) { return p.posts, nil })
	schema.Mutation(b, "touch", func(_ context.Context, a struct{ N int }) (*pPost, error) {
		p.record("touch", []string{fmt.Sprint(a.N)}, "")
		return p.posts[a.N], nil
	})
	schema.QueryNoArgs(b, "feed", func(context.Context) (*pFeed, error) {
		f := &pFeed{}
		for _, x := range p.posts {
			f.Edges = append(f.Edges, pEdge{Cursor: "c" + x.ID, Node: x})
		}
		return f, nil
	})
	schema.QueryNoArgs(b, "entries", func(context.Context) ([]Entry, error) {
		return []Entry{p.posts[0], &p.comments["p2"][0], p.posts[2], &p.comments["p4"][1]}, nil
	}, schema.OfType("[Entry!]!"))
	schema.QueryNoArgs(b, "authored", func(context.Context) ([]Authored, error) {
		return []Authored{&p.comments["p1"][0], p.posts[1], p.posts[3]}, nil
	}, schema.OfType("[Authored!]!"))
	s, err := b.Build()
	if err != nil {
		t.Fatalf("build press schema: %v", err)
	}
	return p, exec.New(s, opts)
}

func quietOpts() exec.Options {
	return exec.Options{Logger: slog.New(slog.DiscardHandler)}
}

// pressRun runs query with a fresh author loader in the context; the
// loader's fetches are recorded as "loader".
func pressRun(t *testing.T, p *press, e *exec.Engine, ctx context.Context, query string, vars map[string]any) string {
	t.Helper()
	l := loader.New(func(ctx context.Context, ids []string) ([]*pAuthor, []error) {
		p.record("loader", ids, "")
		out := make([]*pAuthor, len(ids))
		for i, id := range ids {
			out[i] = p.authors[id]
		}
		return out, nil
	})
	ctx = context.WithValue(ctx, loaderKey{}, l)
	return run(t, ctx, e, query, "", vars)
}

func wantKeys(t *testing.T, p *press, field string, want ...string) {
	t.Helper()
	calls := p.callsOf(field)
	var got []string
	for _, c := range calls {
		got = append(got, strings.Join(c.keys, ","))
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: calls with keys %q, want %q", field, got, want)
	}
}

func TestBatchShapes(t *testing.T) {
	tests := []struct {
		name  string
		query string
		want  string
		calls map[string][]string // field -> the sorted keys of each call
	}{
		{
			name:  "list items share one call",
			query: `{ posts { id author { name } } }`,
			want:  `{"data":{"posts":[{"id":"p1","author":{"name":"Author a1"}},{"id":"p2","author":{"name":"Author a2"}},{"id":"p3","author":{"name":"Author a3"}},{"id":"p4","author":{"name":"Author a1"}}]}}`,
			calls: map[string][]string{"Post.author": {"a1,a1,a2,a3"}},
		},
		{
			name:  "edges node through intermediate objects",
			query: `{ feed { edges { cursor node { id author { id } } } } }`,
			want:  `{"data":{"feed":{"edges":[{"cursor":"cp1","node":{"id":"p1","author":{"id":"a1"}}},{"cursor":"cp2","node":{"id":"p2","author":{"id":"a2"}}},{"cursor":"cp3","node":{"id":"p3","author":{"id":"a3"}}},{"cursor":"cp4","node":{"id":"p4","author":{"id":"a1"}}}]}}}`,
			calls: map[string][]string{"Post.author": {"a1,a1,a2,a3"}},
		},
		{
			name:  "nested lists: one call per level",
			query: `{ posts { comments(first: 1) { id author { id } } } }`,
			want:  `{"data":{"posts":[{"comments":[{"id":"c1-1","author":{"id":"a3"}}]},{"comments":[{"id":"c2-1","author":{"id":"a1"}}]},{"comments":[{"id":"c3-1","author":{"id":"a2"}}]},{"comments":[{"id":"c4-1","author":{"id":"a3"}}]}]}}`,
			calls: map[string][]string{"Post.comments": {"p1,p2,p3,p4"}, "Comment.author": {"a1,a2,a3,a3"}},
		},
		{
			name:  "fragments and inline fragments",
			query: `{ posts { ...P } } fragment P on Post { id ... on Post { author { name } } ...A } fragment A on Post { author { id } }`,
			want:  `{"data":{"posts":[{"id":"p1","author":{"name":"Author a1","id":"a1"}},{"id":"p2","author":{"name":"Author a2","id":"a2"}},{"id":"p3","author":{"name":"Author a3","id":"a3"}},{"id":"p4","author":{"name":"Author a1","id":"a1"}}]}}`,
			calls: map[string][]string{"Post.author": {"a1,a1,a2,a3"}},
		},
		{
			name:  "union members",
			query: `{ entries { __typename ... on Post { author { id } } ... on Comment { author { id } } } }`,
			want:  `{"data":{"entries":[{"__typename":"Post","author":{"id":"a1"}},{"__typename":"Comment","author":{"id":"a1"}},{"__typename":"Post","author":{"id":"a3"}},{"__typename":"Comment","author":{"id":"a1"}}]}}`,
			calls: map[string][]string{"Post.author": {"a1,a3"}, "Comment.author": {"a1,a1"}},
		},
		{
			name:  "interface field",
			query: `{ authored { author { name } } }`,
			want:  `{"data":{"authored":[{"author":{"name":"Author a3"}},{"author":{"name":"Author a2"}},{"author":{"name":"Author a1"}}]}}`,
			calls: map[string][]string{"Post.author": {"a1,a2"}, "Comment.author": {"a3"}},
		},
		{
			name:  "aliases with different arguments: one call per argument set",
			query: `{ posts { one: comments(first: 1) { id } two: comments(first: 2) { id } again: comments(first: 1) { text } } }`,
			want:  `{"data":{"posts":[{"one":[{"id":"c1-1"}],"two":[{"id":"c1-1"},{"id":"c1-2"}],"again":[{"text":"hi"}]},{"one":[{"id":"c2-1"}],"two":[{"id":"c2-1"},{"id":"c2-2"}],"again":[{"text":"hi"}]},{"one":[{"id":"c3-1"}],"two":[{"id":"c3-1"},{"id":"c3-2"}],"again":[{"text":"hi"}]},{"one":[{"id":"c4-1"}],"two":[{"id":"c4-1"},{"id":"c4-2"}],"again":[{"text":"hi"}]}]}}`,
			calls: map[string][]string{"Post.comments": {"p1,p2,p3,p4", "p1,p2,p3,p4"}},
		},
		{
			name:  "the same post in two places is passed once",
			query: `{ a: posts { author { id } } b: feed { edges { node { author { name } } } } }`,
			want:  `{"data":{"a":[{"author":{"id":"a1"}},{"author":{"id":"a2"}},{"author":{"id":"a3"}},{"author":{"id":"a1"}}],"b":{"edges":[{"node":{"author":{"name":"Author a1"}}},{"node":{"author":{"name":"Author a2"}}},{"node":{"author":{"name":"Author a3"}}},{"node":{"author":{"name":"Author a1"}}}]}}}`,
			calls: map[string][]string{"Post.author": {"a1,a1,a2,a3", "a1,a1,a2,a3"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, e := newPress(t, quietOpts())
			if got := pressRun(t, p, e, context.Background(), tt.query, nil); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			for field, keys := range tt.calls {
				wantKeys(t, p, field, keys...)
			}
			if len(p.calls) != countCalls(tt.calls) {
				t.Errorf("%d batch calls in all (%v), want %d", len(p.calls), p.calls, countCalls(tt.calls))
			}
		})
	}
}

func countCalls(m map[string][]string) int {
	n := 0
	for _, c := range m {
		n += len(c)
	}
	return n
}

func TestBatchUnderSerialMutation(t *testing.T) {
	p, e := newPress(t, quietOpts())
	got := pressRun(t, p, e, context.Background(), `mutation { b: touch(n: 1) { author { id } } a: touch(n: 0) { author { id } } }`, nil)
	if want := `{"data":{"b":{"author":{"id":"a2"}},"a":{"author":{"id":"a1"}}}}`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	var order []string
	for _, c := range p.calls {
		order = append(order, c.field+":"+strings.Join(c.keys, ","))
	}
	// The root fields run one after the other, in order; the authors of
	// both results are then one batch.
	if want := []string{"touch:1", "touch:0", "Post.author:a2,a1"}; !slices.Equal(order, want) {
		t.Errorf("calls %q, want %q", order, want)
	}
}

func TestBatchConditionsAndVariables(t *testing.T) {
	q := `query($w: Boolean!, $n: Int) { posts { author @include(if: $w) { id } comments(first: $n) @skip(if: $w) { id } } }`
	for _, tt := range []struct {
		vars  map[string]any
		want  string
		calls map[string][]string
	}{
		{map[string]any{"w": true}, `{"data":{"posts":[{"author":{"id":"a1"}},{"author":{"id":"a2"}},{"author":{"id":"a3"}},{"author":{"id":"a1"}}]}}`,
			map[string][]string{"Post.author": {"a1,a1,a2,a3"}}},
		{map[string]any{"w": false, "n": 1}, `{"data":{"posts":[{"comments":[{"id":"c1-1"}]},{"comments":[{"id":"c2-1"}]},{"comments":[{"id":"c3-1"}]},{"comments":[{"id":"c4-1"}]}]}}`,
			map[string][]string{"Post.comments": {"p1,p2,p3,p4"}}},
	} {
		p, e := newPress(t, quietOpts())
		if got := pressRun(t, p, e, context.Background(), q, tt.vars); got != tt.want {
			t.Errorf("%v: got  %s\nwant %s", tt.vars, got, tt.want)
		}
		for field, keys := range tt.calls {
			wantKeys(t, p, field, keys...)
		}
		if len(p.calls) != countCalls(tt.calls) {
			t.Errorf("%v: calls %v", tt.vars, p.calls)
		}
		if c := p.callsOf("Post.comments"); len(c) == 1 && c[0].args != "1" {
			t.Errorf("comments called with first=%s, want 1", c[0].args)
		}
	}
}
