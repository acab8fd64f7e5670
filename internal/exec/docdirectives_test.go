package exec_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/internal/schemadef"
	"github.com/graftgql/graft/schema"
)

type wrapKey struct{}

// TestDocumentDirectives runs the schema's DocumentDirectives hook where
// documents apply its directives: around the operation, once, with the
// context it passes on reaching the resolvers, and around fields, outside
// their schema directives.
func TestDocumentDirectives(t *testing.T) {
	b := schema.New()
	var resolved int
	schema.QueryNoArgs(b, "word", func(ctx context.Context) (string, error) {
		resolved++
		s, _ := ctx.Value(wrapKey{}).(string)
		return "w" + s, nil
	})
	b.SDL("directives.graphql", "directive @op(mode: String!) on QUERY\ndirective @loud on FIELD\ndirective @other on QUERY\ntype Query {\n  word: String!\n}\n")
	schemadef.BuilderOf(b).SetDocumentDirectives(&schemadef.DocumentDirectives{
		Names: map[string]bool{"op": true, "loud": true},
		Operation: func(ctx context.Context, op *ast.OperationDefinition, vars map[string]any, next func(context.Context) ([]byte, error)) ([]byte, error) {
			switch mode := op.Directives.ForName("op").ArgumentMap(vars)["mode"]; mode {
			case "ctx":
				return next(context.WithValue(ctx, wrapKey{}, "+"))
			case "fail":
				return nil, errors.New("refused")
			case "twice":
				next(ctx)
				_, err := next(ctx)
				return nil, err
			case "replace":
				next(ctx)
				return []byte(`{"word":"replaced"}`), nil
			case "huge":
				return []byte(`"` + strings.Repeat("x", 200) + `"`), nil
			case "panic":
				panic("boom")
			default:
				return nil, nil
			}
		},
		Field: func(ctx context.Context, field *ast.Field, parent any, vars map[string]any, next func(context.Context) (any, error)) (any, error) {
			v, err := next(ctx)
			return strings.ToUpper(v.(string)), err
		},
	})
	b.EnableIncrementalDelivery()
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	e := exec.New(s, exec.Options{MaxResponseBytes: 100, Logger: slog.New(slog.DiscardHandler)})
	for _, tc := range []struct{ query, want string }{
		{`{ word }`, `{"data":{"word":"w"}}`},
		{`query @other { word }`, `{"data":{"word":"w"}}`},
		{`query @op(mode: "ctx") { word }`, `{"data":{"word":"w+"}}`},
		{`query @op(mode: "ctx") { word @loud }`, `{"data":{"word":"W+"}}`},
		{`query @op(mode: "fail") { word }`, `{"errors":[{"message":"refused","locations":[{"line":1,"column":1}]}],"data":null}`},
		{`query @op(mode: "twice") { word }`, `{"errors":[{"message":"the operation was already executed","locations":[{"line":1,"column":1}]}],"data":null}`},
		{`query @op(mode: "replace") { word }`, `{"data":{"word":"replaced"}}`},
		{`query @op(mode: "huge") { word }`, `{"errors":[{"message":"the operation's directives returned data beyond the response budget","locations":[{"line":1,"column":1}]}],"data":null}`},
		{`query @op(mode: "none") { word }`, `{"data":null}`},
		{`query @op(mode: "panic") { word }`, `{"errors":[{"message":"Internal server error","locations":[{"line":1,"column":1}],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":null}`},
	} {
		resolved = 0
		doc, errs := e.Prepare(tc.query)
		if errs != nil {
			t.Fatal(errs)
		}
		op, gerr := doc.Operation("")
		if gerr != nil {
			t.Fatal(gerr)
		}
		if got := string(e.Execute(context.Background(), op, nil, nil, nil)); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.query, got, tc.want)
		}
		if resolved > 1 {
			t.Errorf("%s: the operation ran %d times", tc.query, resolved)
		}
	}

	// An incremental operation: the directive wraps the initial payload,
	// and its error leaves nothing deferred.
	for _, tc := range []struct{ query, want string }{
		{`query @op(mode: "ctx") { word ... @defer { w2: word } }`, `{"data":{"word":"w+"},"pending":[{"id":"0","path":[]}],"hasNext":true}`},
		{`query @op(mode: "fail") { word ... @defer { w2: word } }`, `{"errors":[{"message":"refused","locations":[{"line":1,"column":1}]}],"data":null,"hasNext":false}`},
	} {
		doc, errs := e.Prepare(tc.query)
		if errs != nil {
			t.Fatal(errs)
		}
		op, gerr := doc.Operation("")
		if gerr != nil {
			t.Fatal(gerr)
		}
		out, _, inc := e.RunIncremental(context.Background(), op, nil, exec.FormatCurrent, nil, nil, nil)
		if string(out) != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.query, out, tc.want)
		}
		if inc != nil {
			inc.Close()
		}
	}
}
