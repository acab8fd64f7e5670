package gqlgen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	gqlgraphql "github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/graftgql/graft/grafttest"
)

type (
	opRes   struct{ calls *atomic.Int64 }
	opQuery struct{ calls *atomic.Int64 }
	opMut   struct{}
	opSub   struct{}
	tagKey  struct{}
	Note    struct {
		Text string
		Tag  string
	}
)

func (r opRes) Query() opQuery         { return opQuery{r.calls} }
func (opRes) Mutation() opMut          { return opMut{} }
func (opRes) Subscription() opSub      { return opSub{} }
func tagOf(ctx context.Context) string { s, _ := ctx.Value(tagKey{}).(string); return s }
func (q opQuery) Note(ctx context.Context) (*Note, error) {
	q.calls.Add(1)
	return &Note{Text: "hello", Tag: tagOf(ctx)}, nil
}
func (q opQuery) Tag(ctx context.Context) (string, error) { q.calls.Add(1); return tagOf(ctx), nil }
func (opMut) Save(ctx context.Context, text string) (*Note, error) {
	return &Note{Text: text, Tag: tagOf(ctx)}, nil
}
func (opSub) Notes(ctx context.Context) (<-chan *Note, error) {
	ch := make(chan *Note, 1)
	ch <- &Note{Text: "event", Tag: tagOf(ctx)}
	close(ch)
	return ch, nil
}

const opSchema = `directive @tag(name: String!) on QUERY | MUTATION | SUBSCRIPTION
directive @deny on QUERY
directive @constant on QUERY
directive @shout(marks: Int = 1) on FIELD
directive @label on FRAGMENT_SPREAD | INLINE_FRAGMENT

type Query {
  note: Note!
  tag: String!
}

type Mutation {
  save(text: String!): Note!
}

type Subscription {
  notes: Note!
}

type Note {
  text: String!
  tag: String!
}
`

// rawJSON is a graphql.Marshaler writing fixed JSON.
type rawJSON string

func (r rawJSON) MarshalGQL(w io.Writer) { io.WriteString(w, string(r)) }

// TestOperationDirectives runs directive functions applied by documents:
// around the whole operation (QUERY, MUTATION, SUBSCRIPTION), once, with
// the context they pass on reaching every resolver, and around fields
// (FIELD), with the parent object and arguments from variables.
func TestOperationDirectives(t *testing.T) {
	var tagCalls, labelCalls atomic.Int64
	var mu sync.Mutex
	var ops, parents []string
	tag := func(ctx context.Context, obj any, next gqlgraphql.Resolver, name string) (any, error) {
		tagCalls.Add(1)
		op := obj.(*ast.OperationDefinition)
		ops = append(ops, string(op.Operation))
		return next(context.WithValue(ctx, tagKey{}, name))
	}
	deny := func(ctx context.Context, obj any, next gqlgraphql.Resolver) (any, error) {
		return nil, errors.New("denied")
	}
	constant := func(ctx context.Context, obj any, next gqlgraphql.Resolver) (any, error) {
		if _, err := next(ctx); err != nil {
			return nil, err
		}
		return rawJSON(`{"tag":"constant"}`), nil
	}
	shout := func(ctx context.Context, obj any, next gqlgraphql.Resolver, marks int) (any, error) {
		mu.Lock()
		if n, ok := obj.(*Note); ok {
			parents = append(parents, n.Text)
		} else {
			parents = append(parents, fmt.Sprint(obj))
		}
		mu.Unlock()
		v, err := next(ctx)
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("@shout: %T is not a string", v)
		}
		return strings.ToUpper(s) + strings.Repeat("!", marks), err
	}
	label := func(ctx context.Context, obj any, next gqlgraphql.Resolver) (any, error) {
		labelCalls.Add(1)
		return next(ctx)
	}
	calls := &atomic.Int64{}
	c := serveProject(t, project(t, "schema: graph/*.graphqls\n", opSchema), opRes{calls},
		Directive("tag", tag), Directive("deny", deny), Directive("constant", constant), Directive("shout", shout), Directive("label", label))
	for _, tc := range []struct {
		name, query string
		vars        map[string]any
		want        string
		tagCalls    int64
		resolved    int64
	}{
		{"query", `query @tag(name: "blue") { note { text tag } tag }`, nil, `{"data":{"note":{"text":"hello","tag":"blue"},"tag":"blue"}}`, 1, 2},
		{"variables", `query($n: String!) @tag(name: $n) { tag }`, map[string]any{"n": "red"}, `{"data":{"tag":"red"}}`, 1, 1},
		{"without", `{ tag }`, nil, `{"data":{"tag":""}}`, 0, 1},
		{"error", `query @deny @tag(name: "x") { tag }`, nil, `{"errors":[{"message":"denied","locations":[{"line":1,"column":1}]}],"data":null}`, 1, 0},
		{"replaced", `query @constant { tag }`, nil, `{"data":{"tag":"constant"}}`, 0, 1},
		{"mutation", `mutation @tag(name: "green") { save(text: "hi") { text tag } }`, nil, `{"data":{"save":{"text":"hi","tag":"green"}}}`, 1, 0},
		{"field", `query($m: Int) { note { text @shout(marks: $m) t: text @shout } tag @shout }`, map[string]any{"m": 3}, `{"data":{"note":{"text":"HELLO!!!","t":"HELLO!"},"tag":"!"}}`, 0, 2},
		{"field error", `{ tag @shout(marks: 0) note @shout { text } }`, nil, `{"errors":[{"message":"@shout: *gqlgen.Note is not a string","locations":[{"line":1,"column":24}],"path":["note"]}],"data":null}`, 0, 2},
		{"fragments", `{ ... @label { tag } ...F @label } fragment F on Query { note { text } }`, nil, `{"data":{"tag":"","note":{"text":"hello"}}}`, 0, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tagCalls.Store(0)
			calls.Store(0)
			resp := c.Do(t, tc.query, tc.vars)
			if string(resp.Body) != tc.want {
				t.Errorf("got  %s\nwant %s", resp.Body, tc.want)
			}
			if tagCalls.Load() != tc.tagCalls || calls.Load() != tc.resolved {
				t.Errorf("@tag ran %d times, query resolvers %d; want %d and %d", tagCalls.Load(), calls.Load(), tc.tagCalls, tc.resolved)
			}
		})
	}
	// @deny @tag: the last is outermost, as in gqlgen's generated code.
	if want := "query query query mutation"; strings.Join(ops, " ") != want {
		t.Errorf("@tag saw operations %q, want %s", ops, want)
	}
	slices.Sort(parents)
	if want := "<nil> <nil> <nil> hello hello"; strings.Join(parents, " ") != want {
		t.Errorf("@shout saw parents %q, want %s", parents, want)
	}
	if labelCalls.Load() != 0 {
		t.Errorf("@label ran %d times; gqlgen runs nothing on fragments", labelCalls.Load())
	}

	sub := c.Subscribe(t, grafttest.SSE, `subscription @tag(name: "live") { notes { text tag } }`, nil)
	resp, ok := sub.Next(t)
	if want := `{"data":{"notes":{"text":"event","tag":"live"}}}`; !ok || string(resp.Body) != want {
		t.Errorf("subscription: got %s, want %s", resp.Body, want)
	}
}
