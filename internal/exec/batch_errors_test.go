package exec_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/graftgql/graft/internal/exec"
)

func TestBatchErrorsPerItem(t *testing.T) {
	tests := []struct {
		name, query, fail, want string
		calls                   map[string][]string
	}{
		{
			name:  "an error for one parent nulls that item's field only",
			query: `{ posts { id author { name } } }`,
			fail:  "a2",
			want:  `{"errors":[{"message":"author a2 is unavailable","locations":[{"line":1,"column":14}],"path":["posts",1,"author"]}],"data":{"posts":[{"id":"p1","author":{"name":"Author a1"}},{"id":"p2","author":null},{"id":"p3","author":{"name":"Author a3"}},{"id":"p4","author":{"name":"Author a1"}}]}}`,
			calls: map[string][]string{"Post.author": {"a1,a1,a2,a3"}},
		},
		{
			name:  "a non-null failure nulls the nearest nullable parent",
			query: `{ posts { id strictAuthor { name } } }`,
			fail:  "a1",
			want:  `{"errors":[{"message":"author a1 is unavailable","locations":[{"line":1,"column":14}],"path":["posts",0,"strictAuthor"]},{"message":"author a1 is unavailable","locations":[{"line":1,"column":14}],"path":["posts",3,"strictAuthor"]}],"data":{"posts":[null,{"id":"p2","strictAuthor":{"name":"Author a2"}},{"id":"p3","strictAuthor":{"name":"Author a3"}},null]}}`,
			calls: map[string][]string{"Post.strictAuthor": {"a1,a1,a2,a3"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, e := newPress(t, quietOpts())
			p.failAuthor = tt.fail
			if got := pressRun(t, p, e, context.Background(), tt.query, nil); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			for field, keys := range tt.calls {
				wantKeys(t, p, field, keys...)
			}
		})
	}
}

func TestBatchWholeFailure(t *testing.T) {
	for field, want := range map[string]struct{ msg, code string }{
		"short": {"too few results", ""}, // one error for all parents
		// A result count that does not fit: the resolver's bug is an
		// internal error, its detail for the log only.
		"wrongCount": {"Internal server error", "INTERNAL_SERVER_ERROR"},
	} {
		msg := want.msg
		t.Run(field, func(t *testing.T) {
			var logs bytes.Buffer
			p, e := newPress(t, exec.Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			got := pressRun(t, p, e, context.Background(), `{ posts { comments(first: 1) { `+field+` } } }`, nil)
			if want.code != "" {
				if n := strings.Count(logs.String(), "batch resolver returned 1 results for 4 parents"); n != 1 {
					t.Errorf("logged the detail %d times, want once:\n%s", n, logs.String())
				}
			}
			var resp struct {
				Errors []struct {
					Message    string `json:"message"`
					Path       []any  `json:"path"`
					Extensions struct {
						Code string `json:"code"`
					} `json:"extensions"`
				} `json:"errors"`
				Data json.RawMessage `json:"data"`
			}
			if err := json.Unmarshal([]byte(got), &resp); err != nil {
				t.Fatal(err)
			}
			if len(resp.Errors) != 4 {
				t.Fatalf("got %d errors, want one per comment (4): %s", len(resp.Errors), got)
			}
			for i, ge := range resp.Errors {
				path, _ := json.Marshal(ge.Path)
				wantPath := fmt.Sprintf(`["posts",%d,"comments",0,"%s"]`, i, field)
				if ge.Message != msg || string(path) != wantPath || ge.Extensions.Code != want.code {
					t.Errorf("error %d = %q (%q) at %s, want %q (%q) at %s", i, ge.Message, ge.Extensions.Code, path, msg, want.code, wantPath)
				}
			}
			// The field is String!: each comment, then its non-null list,
			// then the post becomes null.
			if string(resp.Data) != `{"posts":[null,null,null,null]}` {
				t.Errorf("data: %s", resp.Data)
			}
		})
	}
}

func TestBatchPanicIsContained(t *testing.T) {
	var logs bytes.Buffer
	p, e := newPress(t, exec.Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	p.panicOn = "Post.author"
	got := pressRun(t, p, e, context.Background(), `{ posts { id author { id } } hello: feed { edges { cursor } } }`, nil)
	want := `{"errors":[` +
		`{"message":"Internal server error","locations":[{"line":1,"column":14}],"path":["posts",0,"author"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}},` +
		`{"message":"Internal server error","locations":[{"line":1,"column":14}],"path":["posts",1,"author"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}},` +
		`{"message":"Internal server error","locations":[{"line":1,"column":14}],"path":["posts",2,"author"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}},` +
		`{"message":"Internal server error","locations":[{"line":1,"column":14}],"path":["posts",3,"author"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],` +
		`"data":{"posts":[{"id":"p1","author":null},{"id":"p2","author":null},{"id":"p3","author":null},{"id":"p4","author":null}],"hello":{"edges":[{"cursor":"cp1"},{"cursor":"cp2"},{"cursor":"cp3"},{"cursor":"cp4"}]}}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if n := strings.Count(logs.String(), "batch resolver panicked"); n != 1 {
		t.Errorf("logged %d panics, want 1:\n%s", n, logs.String())
	}
	if !strings.Contains(logs.String(), "batch exploded") || !strings.Contains(logs.String(), "Post.author") {
		t.Errorf("log lacks the panic value or field: %s", logs.String())
	}
}

func TestBatchCancelledRequestCancelsBatch(t *testing.T) {
	p, e := newPress(t, quietOpts())
	p.block, p.started = make(chan struct{}), make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan string)
	go func() { done <- pressRun(t, p, e, ctx, `{ posts { id author { id } } }`, nil) }()
	<-p.started
	cancel()
	got := <-done
	if n := strings.Count(got, `"code":"REQUEST_CANCELLED"`); n != 4 {
		t.Errorf("got %d context errors, want one per post: %s", n, got)
	}
	if !strings.Contains(got, `"data":{"posts":[{"id":"p1","author":null},`) {
		t.Errorf("data: %s", got)
	}
}

func TestBatchesOfOneLevelRunConcurrently(t *testing.T) {
	p, e := newPress(t, quietOpts())
	p.meet = &sync.WaitGroup{}
	p.meet.Add(2)
	got := pressRun(t, p, e, context.Background(), `{ posts { author { id } comments(first: 1) { id } } }`, nil)
	if strings.Contains(got, "errors") {
		t.Fatalf("batches did not meet: %s", got)
	}
	wantKeys(t, p, "Post.author", "a1,a1,a2,a3")
	wantKeys(t, p, "Post.comments", "p1,p2,p3,p4")
}

func TestBatchConcurrencyOfOne(t *testing.T) {
	opts := quietOpts()
	opts.MaxConcurrency = 1
	p, e := newPress(t, opts)
	got := pressRun(t, p, e, context.Background(), `{ posts { author { id } writer { id } comments(first: 1) { id writer { name } author { id } } } }`, nil)
	want := `{"data":{"posts":[{"author":{"id":"a1"},"writer":{"id":"a1"},"comments":[{"id":"c1-1","writer":{"name":"Author a3"},"author":{"id":"a3"}}]},{"author":{"id":"a2"},"writer":{"id":"a2"},"comments":[{"id":"c2-1","writer":{"name":"Author a1"},"author":{"id":"a1"}}]},{"author":{"id":"a3"},"writer":{"id":"a3"},"comments":[{"id":"c3-1","writer":{"name":"Author a2"},"author":{"id":"a2"}}]},{"author":{"id":"a1"},"writer":{"id":"a1"},"comments":[{"id":"c4-1","writer":{"name":"Author a3"},"author":{"id":"a3"}}]}]}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	wantKeys(t, p, "loader", "a1,a2,a3")
}

// TestBatchAbandonedObjectKeepsNeighboursAligned fails a non-null field
// before a field with batched children: the object is abandoned half
// way, and its neighbours still take their own resolved values.
func TestBatchAbandonedObjectKeepsNeighboursAligned(t *testing.T) {
	p, e := newPress(t, quietOpts())
	p.failAuthor = "a1"
	got := pressRun(t, p, e, context.Background(), `{ posts { strictAuthor { id } comments(first: 1) { author { id } } } }`, nil)
	// Comment.author fails for a1 too, at its own path.
	want := `{"errors":[` +
		`{"message":"author a1 is unavailable","locations":[{"line":1,"column":11}],"path":["posts",0,"strictAuthor"]},` +
		`{"message":"author a1 is unavailable","locations":[{"line":1,"column":52}],"path":["posts",1,"comments",0,"author"]},` +
		`{"message":"author a1 is unavailable","locations":[{"line":1,"column":11}],"path":["posts",3,"strictAuthor"]}],` +
		`"data":{"posts":[null,{"strictAuthor":{"id":"a2"},"comments":[{"author":null}]},{"strictAuthor":{"id":"a3"},"comments":[{"author":{"id":"a2"}}]},null]}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	wantKeys(t, p, "Post.strictAuthor", "a1,a1,a2,a3")
	wantKeys(t, p, "Post.comments", "p1,p2,p3,p4")
	wantKeys(t, p, "Comment.author", "a1,a2,a3,a3")
}

// TestBatchResponseBudgetBoundsResolvingAhead nests a batch field that
// triples each level: resolving ahead stops once more objects than the
// response budget can hold were found, and the writer's budget ends the
// response as for any query.
func TestBatchResponseBudgetBoundsResolvingAhead(t *testing.T) {
	opts := quietOpts()
	opts.MaxResponseBytes = 20_000
	p, e := newPress(t, opts)
	query := "{ posts { author { " + strings.Repeat("peers { id ", 14) + strings.Repeat("} ", 14) + "} } }"
	got := pressRun(t, p, e, context.Background(), query, nil)
	if !strings.Contains(got, `"code":"RESPONSE_TOO_LARGE"`) {
		t.Fatalf("no RESPONSE_TOO_LARGE error: %.300s", got)
	}
	keys := 0
	for _, c := range p.callsOf("Author.peers") {
		keys += len(c.keys)
	}
	if keys > opts.MaxResponseBytes/2+len(p.calls)*3 {
		t.Errorf("resolved %d parents ahead for a budget of %d bytes", keys, opts.MaxResponseBytes)
	}
}
