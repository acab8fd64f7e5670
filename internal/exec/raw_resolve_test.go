package exec_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/schema"
)

// The Tailcall shape: posts from one upstream answer, each post's user
// from another, the user a resolver below the raw posts.

type tcPost struct {
	ID     schema.ID `json:"id"`
	UserID schema.ID `json:"userId" graphql:"userId"`
	Title  string    `json:"title"`
}

type tcUser struct {
	ID    schema.ID `json:"id"`
	Name  string    `json:"name"`
	Email string    `json:"email"`
}

// tcData returns n posts, post i by user i%users+1, as the JSON of
// /posts and the users' JSON objects by id.
func tcData(n, users int) (string, map[string]schema.RawJSON) {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"userId":"%d","id":"%d","title":"post %d","body":"long text we never select %d"}`, i%users+1, i+1, i+1, i)
	}
	b.WriteByte(']')
	byID := map[string]schema.RawJSON{}
	for u := 1; u <= users; u++ {
		byID[fmt.Sprint(u)] = schema.RawJSON(fmt.Sprintf(`{"id":"%d","name":"user %d","username":"u%d","email":"u%d@example.com","address":{"city":"c"}}`, u, u, u, u))
	}
	return b.String(), byID
}

// rawID reads a post's userId, a JSON number or string, from its bytes.
func rawID(post schema.RawJSON) string {
	return strings.Trim(string(schema.RawMember(post, "userId")), `"`)
}

type tcCounts struct{ batch, single, parents int }

func newTailcall(t testing.TB, postsJSON string, users map[string]schema.RawJSON, fail map[string]error) (*exec.Engine, *tcCounts) {
	t.Helper()
	c := &tcCounts{}
	b := schema.New()
	post := schema.Object[tcPost](b, "Post")
	schema.Object[tcUser](b, "User")
	schema.RawGroupFieldFuncNoArgs(post, "user", func(_ context.Context, parents []schema.RawJSON) ([]schema.RawJSON, []error) {
		c.batch++
		c.parents += len(parents)
		out := make([]schema.RawJSON, len(parents))
		var errs []error
		for i, p := range parents {
			id := bytes.Trim(schema.RawMember(p, "userId"), `"`)
			if err := fail[string(id)]; err != nil {
				if errs == nil {
					errs = make([]error, len(parents))
				}
				errs[i] = err
				continue
			}
			out[i] = users[string(id)]
		}
		return out, errs
	}, schema.OfType("User"))
	schema.RawFieldFuncNoArgs(post, "userRef", func(_ context.Context, p schema.RawJSON) (string, error) {
		c.single++
		if rawID(p) == "panic" {
			panic("boom")
		}
		return "user:" + rawID(p), nil
	})
	schema.QueryNoArgs(b, "posts", func(context.Context) (schema.RawJSON, error) {
		return schema.RawJSON(postsJSON), nil
	}, schema.OfType("[Post!]!"))
	schema.QueryNoArgs(b, "structPosts", func(context.Context) ([]tcPost, error) {
		return []tcPost{{ID: "1", UserID: "2", Title: "a"}, {ID: "2", UserID: "1", Title: "b"}}, nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return exec.New(s, quietOpts()), c
}

// TestRawResolversBelowRaw: a batch field below a raw list runs once for
// every post, reading each post's userId from its bytes; plain fields are
// projected from the bytes; the users each post points to are written
// from their raw JSON.
func TestRawResolversBelowRaw(t *testing.T) {
	posts, users := tcData(6, 2)
	e, c := newTailcall(t, posts, users, nil)
	got := run(t, context.Background(), e, `{ posts { id userId title user { id name email } userRef } }`, "", nil)
	var want strings.Builder
	want.WriteString(`{"data":{"posts":[`)
	for i := range 6 {
		if i > 0 {
			want.WriteByte(',')
		}
		u := i%2 + 1
		fmt.Fprintf(&want, `{"id":"%d","userId":"%d","title":"post %d","user":{"id":"%d","name":"user %d","email":"u%d@example.com"},"userRef":"user:%d"}`, i+1, u, i+1, u, u, u, u)
	}
	want.WriteString(`]}}`)
	if got != want.String() {
		t.Fatalf("got  %s\nwant %s", got, want.String())
	}
	if c.batch != 1 || c.parents != 6 || c.single != 6 {
		t.Fatalf("batch calls %d with %d parents, single calls %d; want 1, 6, 6", c.batch, c.parents, c.single)
	}
}

// TestRawResolversErrors: a parent's error lands at its own path, and a
// user that fails for one post is still written for the others; a
// panicking resolver is an internal error at its field.
func TestRawResolversErrors(t *testing.T) {
	posts := `[{"id":1,"userId":1,"title":"a"},{"id":2,"userId":2,"title":"b"},{"id":3,"userId":1,"title":"c"},{"id":4,"userId":"panic","title":"d"}]`
	_, users := tcData(0, 2)
	users["panic"] = users["1"]
	e, _ := newTailcall(t, posts, users, map[string]error{"2": errors.New("user 2 is gone")})
	got := run(t, context.Background(), e, `{ posts { id user { name } } }`, "", nil)
	want := `{"errors":[{"message":"user 2 is gone","locations":[{"line":1,"column":14}],"path":["posts",1,"user"]}],"data":{"posts":[{"id":"1","user":{"name":"user 1"}},{"id":"2","user":null},{"id":"3","user":{"name":"user 1"}},{"id":"4","user":{"name":"user 1"}}]}}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	got = run(t, context.Background(), e, `{ posts { id userRef } }`, "", nil)
	if !strings.Contains(got, `"path":["posts",3,"userRef"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}`) {
		t.Fatalf("panic: %s", got)
	}
}

// TestRawResolversSharedObjectWithError: an object written with an error
// is not copied for its other parents: each gets its own error at its own
// path.
func TestRawResolversSharedObjectWithError(t *testing.T) {
	posts := `[{"id":1,"userId":1},{"id":2,"userId":1}]`
	users := map[string]schema.RawJSON{"1": schema.RawJSON(`{"id":1,"name":null}`)}
	b := schema.New()
	post := schema.Object[tcPost](b, "Post")
	schema.Object[tcUser](b, "User")
	schema.RawGroupFieldFuncNoArgs(post, "user", func(_ context.Context, parents []schema.RawJSON) ([]schema.RawJSON, []error) {
		out := make([]schema.RawJSON, len(parents))
		for i, p := range parents {
			out[i] = users[rawID(p)]
		}
		return out, nil
	}, schema.OfType("User"))
	schema.QueryNoArgs(b, "posts", func(context.Context) (schema.RawJSON, error) { return schema.RawJSON(posts), nil }, schema.OfType("[Post!]!"))
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	got := run(t, context.Background(), exec.New(s, quietOpts()), `{ posts { id user { name } } }`, "", nil)
	for _, p := range []string{`"path":["posts",0,"user","name"]`, `"path":["posts",1,"user","name"]`} {
		if !strings.Contains(got, p) {
			t.Fatalf("no error at %s: %s", p, got)
		}
	}
}

// TestRawResolversUnderGoParents: the same fields under Go values get the
// parent encoded as JSON.
func TestRawResolversUnderGoParents(t *testing.T) {
	_, users := tcData(0, 2)
	e, c := newTailcall(t, "[]", users, nil)
	got := run(t, context.Background(), e, `{ structPosts { id user { name } userRef } }`, "", nil)
	want := `{"data":{"structPosts":[{"id":"1","user":{"name":"user 2"},"userRef":"user:2"},{"id":"2","user":{"name":"user 1"},"userRef":"user:1"}]}}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if c.batch != 1 {
		t.Fatalf("%d batch calls, want 1", c.batch)
	}
}

// BenchmarkTailcall is the Tailcall replica's query over 100 posts and 10
// users, in process: raw JSON with a raw batch resolver below it, against
// the same answer decoded into structs with a batch resolver.
func BenchmarkTailcall(b *testing.B) {
	posts, users := tcData(100, 10)
	const q = `{ posts { id userId title user { id name email } } }`
	b.Run("raw", func(b *testing.B) {
		e, _ := newTailcall(b, posts, users, nil)
		benchRun(b, e, q)
	})
	b.Run("structs", func(b *testing.B) {
		e := newTailcallStructs(b, posts, users)
		benchRun(b, e, q)
	})
}

// newTailcallStructs serves the same data decoded with encoding/json:
// the posts answer into []tcPost, each user's object into a tcUser, as a
// server without raw JSON does.
func newTailcallStructs(t testing.TB, postsJSON string, users map[string]schema.RawJSON) *exec.Engine {
	t.Helper()
	b := schema.New()
	post := schema.Object[tcPost](b, "Post")
	schema.Object[tcUser](b, "User")
	schema.GroupFieldFuncNoArgs(post, "user", func(_ context.Context, parents []*tcPost) ([]*tcUser, []error) {
		decoded := map[schema.ID]*tcUser{}
		out := make([]*tcUser, len(parents))
		for i, p := range parents {
			u, ok := decoded[p.UserID]
			if !ok {
				u = new(tcUser)
				if err := json.Unmarshal(users[string(p.UserID)], u); err != nil {
					return nil, []error{err}
				}
				decoded[p.UserID] = u
			}
			out[i] = u
		}
		return out, nil
	})
	schema.QueryNoArgs(b, "posts", func(context.Context) ([]tcPost, error) {
		var ps []tcPost
		err := json.Unmarshal([]byte(postsJSON), &ps)
		return ps, err
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return exec.New(s, quietOpts())
}

func benchRun(b *testing.B, e *exec.Engine, query string) {
	doc, errs := e.Prepare(query)
	if errs != nil {
		b.Fatal(errs)
	}
	op, gerr := doc.Operation("")
	if gerr != nil {
		b.Fatal(gerr)
	}
	buf := make([]byte, 0, 64<<10)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		buf = e.Execute(ctx, op, nil, buf[:0], nil)
	}
	if strings.Contains(string(buf), `"errors"`) {
		b.Fatal(string(buf[:min(len(buf), 500)]))
	}
}
