package exec_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/schema"
)

func TestLoaderBatchesPerLevel(t *testing.T) {
	p, e := newPress(t, quietOpts())
	// The posts' writers are loaded at one level, the comments' writers at
	// the next: one fetch each, and the second asks only for what the
	// first did not fetch.
	p.authors["a9"] = &pAuthor{ID: "a9", Name: "Author a9"}
	p.comments["p1"][0].authorID = "a9"
	got := pressRun(t, p, e, context.Background(), `{ posts { writer { id } comments(first: 1) { writer { id } } } }`, nil)
	want := `{"data":{"posts":[{"writer":{"id":"a1"},"comments":[{"writer":{"id":"a9"}}]},{"writer":{"id":"a2"},"comments":[{"writer":{"id":"a1"}}]},{"writer":{"id":"a3"},"comments":[{"writer":{"id":"a2"}}]},{"writer":{"id":"a1"},"comments":[{"writer":{"id":"a3"}}]}]}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	wantKeys(t, p, "loader", "a1,a2,a3", "a9")
}

func TestLoaderThroughEdgesAndUnion(t *testing.T) {
	p, e := newPress(t, quietOpts())
	got := pressRun(t, p, e, context.Background(), `{ feed { edges { node { writer { name } } } } entries { ... on Comment { writer { id } } } }`, nil)
	if strings.Contains(got, "errors") {
		t.Fatal(got)
	}
	// entries[].writer is resolved first (a1 twice, fetched once), then
	// feed.edges[].node.writer two levels further down: a1 is cached.
	wantKeys(t, p, "loader", "a1", "a2,a3")
}

func TestLoaderFromSequentialResolver(t *testing.T) {
	p, e := newPress(t, quietOpts())
	// slowWriter is not Concurrent: its loads still resolve, cached, each
	// sent on its own.
	got := pressRun(t, p, e, context.Background(), `{ posts { slowWriter { id } } }`, nil)
	want := `{"data":{"posts":[{"slowWriter":{"id":"a1"}},{"slowWriter":{"id":"a2"}},{"slowWriter":{"id":"a3"}},{"slowWriter":{"id":"a1"}}]}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	wantKeys(t, p, "loader", "a1", "a2", "a3")
}

// TestLoaderFromSequentialResolverAhead: a resolver that is not
// Concurrent but is resolved ahead (a batch field below it) loads for
// every item of the list in one batch: the sequence goes on while a load
// waits, one resolver at a time.
func TestLoaderFromSequentialResolverAhead(t *testing.T) {
	p, e := newPress(t, quietOpts())
	got := pressRun(t, p, e, context.Background(), `{ posts { slowWriter { id peers { id } } } }`, nil)
	if strings.Contains(got, "errors") || !strings.Contains(got, `"slowWriter":{"id":"a1"`) {
		t.Fatal(got)
	}
	wantKeys(t, p, "loader", "a1,a2,a3")
}

func TestLookAhead(t *testing.T) {
	type seen struct {
		types  []string
		fields map[string][]string
		has    bool
	}
	var got []seen
	b := schema.New()
	schema.Object[pAuthor](b, "Author")
	schema.Interface[Authored](b, "Authored").Field("author", "Author")
	post := schema.Object[pPost](b, "Post", schema.Implements("Authored"))
	comment := schema.Object[pComment](b, "Comment", schema.Implements("Authored"))
	schema.FieldFuncNoArgs(comment, "author", func(ctx context.Context, x *pComment) (*pAuthor, error) { return nil, nil })
	schema.FieldFunc(post, "related", func(ctx context.Context, x *pPost, a pFirst) ([]*pPost, error) {
		return nil, nil
	})
	schema.FieldFuncNoArgs(post, "author", func(ctx context.Context, x *pPost) (*pAuthor, error) { return nil, nil })
	schema.QueryNoArgs(b, "things", func(ctx context.Context) ([]Authored, error) {
		sel := schema.SelectionFrom(ctx)
		s := seen{types: sel.Types(), fields: map[string][]string{}, has: sel.Has("related")}
		for _, tn := range sel.Types() {
			for _, f := range sel.Fields(tn) {
				desc := f.Alias + "=" + f.Name
				if f.Args != nil {
					desc += fmt.Sprintf("(first:%v)", f.Args["first"])
				}
				if f.Selection != nil {
					var sub []string
					for _, st := range f.Selection.Types() {
						for _, sf := range f.Selection.Fields(st) {
							sub = append(sub, sf.Name)
						}
					}
					desc += "{" + strings.Join(sub, " ") + "}"
				}
				s.fields[tn] = append(s.fields[tn], desc)
			}
		}
		got = append(got, s)
		return nil, nil
	}, schema.OfType("[Authored]"))
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	e := exec.New(s, quietOpts())
	q := `query($with: Boolean!, $n: Int) { things { author { id } ... on Post { r: related(first: $n) { title } ...F } ... on Comment { text } } }
	fragment F on Post { id author { name } skipped: title @include(if: $with) }`
	if resp := run(t, context.Background(), e, q, "", map[string]any{"with": false, "n": 3}); !strings.Contains(resp, `"things":null`) {
		t.Fatal(resp)
	}
	if len(got) != 1 {
		t.Fatalf("resolver ran %d times", len(got))
	}
	if !slices.Equal(got[0].types, []string{"Comment", "Post"}) || !got[0].has {
		t.Errorf("types %v, has related %v", got[0].types, got[0].has)
	}
	wantPost := []string{"author=author{id name}", "r=related(first:3){title}", "id=id"}
	if !slices.Equal(got[0].fields["Post"], wantPost) {
		t.Errorf("Post fields %q, want %q", got[0].fields["Post"], wantPost)
	}
	wantComment := []string{"author=author{id}", "text=text"}
	if !slices.Equal(got[0].fields["Comment"], wantComment) {
		t.Errorf("Comment fields %q, want %q", got[0].fields["Comment"], wantComment)
	}
}
