package exec_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/graftgql/graft/internal/exec"
)

func TestRequestErrors(t *testing.T) {
	tests := []struct {
		name  string
		opts  exec.Options
		query string
		op    string
		vars  map[string]any
		want  string
	}{
		{
			name:  "syntax error",
			query: `{ hello`,
			want:  `{"errors":[{"message":"Syntax Error: Expected Name, found <EOF>.","locations":[{"line":1,"column":8}],"extensions":{"code":"GRAPHQL_PARSE_FAILED"}}]}`,
		},
		{
			name:  "token limit",
			opts:  exec.Options{MaxTokens: 3},
			query: `{ hello maybe }`,
			want:  `{"errors":[{"message":"exceeded token limit of 3","extensions":{"code":"GRAPHQL_PARSE_FAILED"}}]}`,
		},
		{
			name:  "unknown field",
			query: `{ nope }`,
			want:  `{"errors":[{"message":"Cannot query field \"nope\" on type \"Query\".","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}`,
		},
		{
			name:  "validation errors are bounded",
			opts:  exec.Options{MaxErrors: 2},
			query: `{ a b c d }`,
			want: `{"errors":[{"message":"Cannot query field \"a\" on type \"Query\".","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}},` +
				`{"message":"Cannot query field \"b\" on type \"Query\".","locations":[{"line":1,"column":5}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}`,
		},
		{
			name:  "field errors are bounded",
			opts:  exec.Options{MaxErrors: 2},
			query: `{ a: plain b: plain c: plain }`,
			want: `{"errors":[{"message":"plain failure","locations":[{"line":1,"column":3}],"path":["a"]},` +
				`{"message":"plain failure","locations":[{"line":1,"column":12}],"path":["b"]}],"data":{"a":null,"b":null,"c":null}}`,
		},
		{
			name:  "masked errors hide plain messages only",
			opts:  exec.Options{MaskErrors: true},
			query: `{ plain coded custom big }`,
			want: `{"errors":[` +
				`{"message":"Internal server error","locations":[{"line":1,"column":3}],"path":["plain"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}},` +
				`{"message":"forbidden","locations":[{"line":1,"column":9}],"path":["coded"],"extensions":{"code":"FORBIDDEN"}},` +
				`{"message":"coded failure","locations":[{"line":1,"column":15}],"path":["custom"],"extensions":{"code":"TEAPOT","retry":true}},` +
				`{"message":"Int cannot represent non 32-bit signed integer value: 1099511627776","locations":[{"line":1,"column":22}],"path":["big"]}],` +
				`"data":{"plain":null,"coded":null,"custom":null,"big":null}}`,
		},
		{
			name:  "validation budget",
			query: `{ ` + strings.Repeat("hello ", 300) + `}`,
			want: `{"errors":[{"message":"The document repeats fields or fragments too often to be validated (more than 50000 field comparisons): merge the repeated selections.",` +
				`"extensions":{"code":"GRAPHQL_VALIDATION_FAILED","limit":50000,"reason":"VALIDATION_BUDGET_EXCEEDED"}}]}`,
		},
		{
			name:  "long names in messages are cut",
			query: `{ ` + strings.Repeat("n", 1100) + ` }`,
			want: `{"errors":[{"message":"Cannot query field \"` + strings.Repeat("n", 1024-len(`Cannot query field "…`)) + `…",` +
				`"locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}`,
		},
		{
			name:  "introspection disabled",
			opts:  exec.Options{DisableIntrospection: true},
			query: `{ __schema { queryType { name } } }`,
			want:  `{"errors":[{"message":"GraphQL introspection is not allowed, but the query contained __schema.","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}`,
		},
		{
			name:  "typename allowed with introspection disabled",
			opts:  exec.Options{DisableIntrospection: true},
			query: `{ __typename }`,
			want:  `{"data":{"__typename":"Query"}}`,
		},
		{
			name:  "several operations and no name",
			query: `query A { hello } query B { hello }`,
			want:  `{"errors":[{"message":"Must provide operation name if query contains multiple operations.","extensions":{"code":"OPERATION_RESOLUTION_FAILURE"}}]}`,
		},
		{
			name:  "unknown operation name",
			query: `query A { hello }`,
			op:    "C",
			want:  `{"errors":[{"message":"Unknown operation named \"C\".","extensions":{"code":"OPERATION_RESOLUTION_FAILURE"}}]}`,
		},
		{
			name:  "missing variable",
			query: `query Q($in: EchoInput!) { echo(input: $in) }`,
			want:  `{"errors":[{"message":"Variable \"$in\" of required type \"EchoInput!\" was not provided.","locations":[{"line":1,"column":9}],"extensions":{"code":"BAD_USER_INPUT"}}]}`,
		},
		{
			name:  "wrong variable type",
			query: `query Q($n: Int!) { add: echo(input: {text: "a"}, times: $n) }`,
			vars:  map[string]any{"n": "x"},
			want:  `{"errors":[{"message":"Variable \"$n\" got invalid value \"x\"; Int cannot represent non-integer value: \"x\"","locations":[{"line":1,"column":9}],"extensions":{"code":"BAD_USER_INPUT"}}]}`,
		},
		{
			name:  "variable out of the Int range",
			query: `query Q($n: Int!) { echo(input: {text: "a"}, times: $n) }`,
			vars:  map[string]any{"n": float64(1 << 40)},
			want:  `{"errors":[{"message":"Variable \"$n\" got invalid value 1099511627776; Int cannot represent non 32-bit signed integer value: 1099511627776","locations":[{"line":1,"column":9}],"extensions":{"code":"BAD_USER_INPUT"}}]}`,
		},
		{
			name:  "bad field inside an input variable",
			query: `query Q($in: EchoInput!) { echo(input: $in) }`,
			vars:  map[string]any{"in": map[string]any{"text": "a", "color": "BLUE"}},
			want:  `{"errors":[{"message":"Variable \"$in\" got invalid value \"BLUE\" at \"in.color\"; Value \"BLUE\" does not exist in \"Color\" enum.","locations":[{"line":1,"column":9}],"extensions":{"code":"BAD_USER_INPUT"}}]}`,
		},
		{
			name:  "empty list and typename on a nested object",
			query: `{ wrapper { hello: __typename } strictRoot: pets(only: "nobody") { name } hello }`,
			want:  `{"data":{"wrapper":{"hello":"Wrapper"},"strictRoot":[],"hello":"world"}}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.opts.Logger == nil {
				tc.opts.Logger = slog.New(slog.DiscardHandler)
			}
			_, e := newZooWith(t, tc.opts)
			got := run(t, context.Background(), e, tc.query, tc.op, tc.vars)
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestPanicIsLogged(t *testing.T) {
	var logs bytes.Buffer
	_, e := newZooWith(t, exec.Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	got := run(t, context.Background(), e, `{ boom }`, "", nil)
	want := `{"errors":[{"message":"Internal server error","locations":[{"line":1,"column":3}],"path":["boom"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":{"boom":null}}`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for _, part := range []string{"resolver panicked", "Query.boom", "kaboom", "goroutine"} {
		if !strings.Contains(logs.String(), part) {
			t.Errorf("log lacks %q:\n%s", part, logs.String())
		}
	}
}

// cancelledAnswer is the answer to `{ stop maybe text: maybe }` when stop
// ends the request's context.
const cancelledAnswer = `{"errors":[` +
	`{"message":"Request cancelled.","locations":[{"line":1,"column":8}],"path":["maybe"],"extensions":{"code":"REQUEST_CANCELLED"}},` +
	`{"message":"Request cancelled.","locations":[{"line":1,"column":14}],"path":["text"],"extensions":{"code":"REQUEST_CANCELLED"}}],` +
	`"data":{"stop":"stopped","maybe":null,"text":null}}`

func TestCancelledContextStopsResolving(t *testing.T) {
	z, e := newZoo(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	z.cancel = cancel
	got := run(t, ctx, e, `{ stop maybe text: maybe }`, "", nil)
	if got != cancelledAnswer {
		t.Errorf("got\n%s\nwant\n%s", got, cancelledAnswer)
	}
}

func TestNonNullRootFailureNullsData(t *testing.T) {
	z, e := newZoo(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	z.cancel = cancel
	got := run(t, ctx, e, `{ stop hello }`, "", nil)
	want := `{"errors":[{"message":"Request cancelled.","locations":[{"line":1,"column":8}],"path":["hello"],"extensions":{"code":"REQUEST_CANCELLED"}}],"data":null}`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestIntrospectionResponseIsReused(t *testing.T) {
	_, e := newZoo(t)
	doc, errs := e.Prepare(`{ __typename __type(name: "Dog") { name fields { name } } }`)
	if errs != nil {
		t.Fatal(errs)
	}
	op, _ := doc.Operation("")
	first := e.Execute(context.Background(), op, nil, nil, nil)
	second := e.Execute(context.Background(), op, nil, []byte("prefix:"), []byte(`{"n":1}`))
	want := `{"data":{"__typename":"Query","__type":{"name":"Dog","fields":[{"name":"name"},{"name":"barks"}]}}}`
	if string(first) != want {
		t.Errorf("first run:\ngot  %s\nwant %s", first, want)
	}
	if want2 := "prefix:" + want[:len(want)-1] + `,"extensions":{"n":1}}`; string(second) != want2 {
		t.Errorf("second run:\ngot  %s\nwant %s", second, want2)
	}
}

func TestDocumentSharedByConcurrentRequests(t *testing.T) {
	_, e := newZoo(t)
	doc, errs := e.Prepare(`query Q($only: String) { pets(only: $only) { name ... on Cat { lives } } items { name } }`)
	if errs != nil {
		t.Fatal(errs)
	}
	op, _ := doc.Operation("")
	want := map[string]string{
		"Tom": `{"errors":[{"message":"bad item","locations":[{"line":1,"column":82}],"path":["items",1,"name"]}],"data":{"pets":[{"name":"Tom","lives":9}],"items":[{"name":"item 1"},null,null,{"name":"item 3"}]}}`,
		"Rex": `{"errors":[{"message":"bad item","locations":[{"line":1,"column":82}],"path":["items",1,"name"]}],"data":{"pets":[{"name":"Rex"}],"items":[{"name":"item 1"},null,null,{"name":"item 3"}]}}`,
	}
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		name := "Tom"
		if i%2 == 0 {
			name = "Rex"
		}
		wg.Go(func() {
			for j := 0; j < 50; j++ {
				vars, verrs := e.CoerceVariables(op, map[string]any{"only": name})
				if verrs != nil {
					t.Error(verrs)
					return
				}
				if got := string(e.Execute(context.Background(), op, vars, nil, nil)); got != want[name] {
					t.Errorf("got\n%s\nwant\n%s", got, want[name])
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestPlanBudget(t *testing.T) {
	// Distinct aliases cost validation little, but each is a field to plan.
	var q strings.Builder
	q.WriteString("{")
	for i := 0; i <= 20_000; i++ {
		fmt.Fprintf(&q, " a%d: hello", i)
	}
	q.WriteString(" }")
	_, e := newZoo(t)
	_, errs := e.Prepare(q.String())
	if len(errs) != 1 || errs[0].Extensions["code"] != "GRAPHQL_VALIDATION_FAILED" ||
		!strings.Contains(errs[0].Message, "expands to more than") {
		t.Fatalf("got %v, want one plan budget error", errs)
	}
}

// enderCtx is an exec.Ender whose Done must not be asked for.
type enderCtx struct {
	context.Context
	ended atomic.Bool
}

func (c *enderCtx) Ended() bool { return c.ended.Load() }

func (c *enderCtx) Err() error {
	if c.ended.Load() {
		return context.Canceled
	}
	return nil
}

func (c *enderCtx) Done() <-chan struct{} { panic("the engine asked an Ender for its Done channel") }

// TestEnderIsPolledNotAskedForDone runs TestCancelledContextStopsResolving's
// request under an exec.Ender: the engine polls Ended, never makes the
// context create a Done channel, and stops resolving once it has ended.
func TestEnderIsPolledNotAskedForDone(t *testing.T) {
	z, e := newZoo(t)
	ctx := &enderCtx{Context: context.Background()}
	z.cancel = func() { ctx.ended.Store(true) }
	got := run(t, ctx, e, `{ stop maybe text: maybe }`, "", nil)
	if got != cancelledAnswer {
		t.Errorf("got\n%s\nwant\n%s", got, cancelledAnswer)
	}
}
