package graft_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/schema"
)

type upperPost struct {
	Title string
	Body  string
}

type upperName string

type orderBox struct{}

// upper upper-cases string values and leaves others alone.
func upper(ctx context.Context, _ map[string]any, next func(context.Context) (any, error)) (any, error) {
	v, err := next(ctx)
	if s, ok := v.(string); ok {
		return strings.ToUpper(s), err
	}
	if s, ok := v.(upperName); ok {
		return upperName(strings.ToUpper(string(s))), err
	}
	return v, err
}

func upperSchema(t *testing.T) *schema.Schema {
	t.Helper()
	b := schema.New()
	b.DeclareDirective(schema.DirectiveDef{Name: "upper", Description: "Upper-cases the string.",
		Locations: []schema.DirectiveLocation{"FIELD_DEFINITION"}, Func: upper})
	b.DeclareDirective(schema.DirectiveDef{Name: "wrongType", Args: "value: Int!",
		Locations: []schema.DirectiveLocation{"FIELD_DEFINITION"},
		Func: func(ctx context.Context, args map[string]any, next func(context.Context) (any, error)) (any, error) {
			if _, err := next(ctx); err != nil {
				return nil, err
			}
			return args["value"], nil // an int64 for a String field
		}})
	schema.Object[upperPost](b, "Post", schema.OnField("title", schema.Directive("upper", "")))
	schema.QueryNoArgs(b, "greeting", func(ctx context.Context) (string, error) { return "hello", nil },
		schema.Directive("upper", ""))
	schema.QueryNoArgs(b, "name", func(ctx context.Context) (upperName, error) { return "ann", nil },
		schema.Directive("upper", ""))
	schema.QueryNoArgs(b, "nick", func(ctx context.Context) (*string, error) { s := "annie"; return &s, nil },
		schema.Directive("wrongType", "value: 42"))
	schema.QueryNoArgs(b, "post", func(ctx context.Context) (*upperPost, error) {
		return &upperPost{Title: "first post", Body: "kept as is"}, nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestDirectiveUpperOnResolverAndStructField(t *testing.T) {
	s := upperSchema(t)
	sdl := s.SDL()
	for _, want := range []string{"greeting: String! @upper", "title: String! @upper", "body: String!\n",
		`"""Upper-cases the string."""` + "\ndirective @upper on FIELD_DEFINITION", "directive @wrongType(value: Int!) on FIELD_DEFINITION"} {
		if !strings.Contains(sdl, want) {
			t.Fatalf("SDL lacks %q:\n%s", want, sdl)
		}
	}
	r, err := graft.NewRouter(s, nil, graft.Config{Logger: quietLogger})
	if err != nil {
		t.Fatal(err)
	}
	res := post(t, r, `{ __schema { directives { name description locations args { name } } } }`)
	if !strings.Contains(res.raw, `{"name":"upper","description":"Upper-cases the string.","locations":["FIELD_DEFINITION"],"args":[]}`) ||
		!strings.Contains(res.raw, `{"name":"wrongType","description":null,"locations":["FIELD_DEFINITION"],"args":[{"name":"value"}]}`) {
		t.Fatalf("introspection: %s", res.raw)
	}
	res = post(t, r, `{ greeting name post { title body } }`)
	if want := `{"data":{"greeting":"HELLO","name":"ANN","post":{"title":"FIRST POST","body":"kept as is"}}}`; res.raw != want {
		t.Fatalf("got  %s\nwant %s", res.raw, want)
	}
}

func TestDirectiveReturningTheWrongTypeFailsTheField(t *testing.T) {
	r, err := graft.NewRouter(upperSchema(t), nil, graft.Config{Logger: quietLogger})
	if err != nil {
		t.Fatal(err)
	}
	res := post(t, r, `{ greeting nick }`)
	if res.status != 200 || len(res.body.Errors) != 1 || res.code(0) != graft.CodeInternalServerError ||
		fmt.Sprint(res.body.Errors[0]["path"]) != "[nick]" || res.body.Data["greeting"] != "HELLO" ||
		res.body.Data["nick"] != nil || !strings.Contains(res.raw, `"nick":null`) {
		t.Fatalf("%d %s", res.status, res.raw)
	}
}

// TestMiddlewareAndDirectiveOrder checks that middleware runs outermost
// first in the order of Config.FieldMiddleware, then the directives of
// the type, then those of the field, each seeing the value the inner ones
// returned.
func TestMiddlewareAndDirectiveOrder(t *testing.T) {
	var trace []string
	tag := func(name string) func(ctx context.Context, next func(context.Context) (any, error)) (any, error) {
		return func(ctx context.Context, next func(context.Context) (any, error)) (any, error) {
			trace = append(trace, "enter "+name)
			v, err := next(ctx)
			trace = append(trace, fmt.Sprintf("leave %s %v", name, v))
			return v.(string) + "+" + name, err
		}
	}
	dir := func(name string) schema.DirectiveDef {
		f := tag(name)
		return schema.DirectiveDef{Name: name, Locations: []schema.DirectiveLocation{"FIELD_DEFINITION", "OBJECT"},
			Func: func(ctx context.Context, _ map[string]any, next func(context.Context) (any, error)) (any, error) {
				return f(ctx, next)
			}}
	}
	b := schema.New()
	b.DeclareDirective(dir("onType"))
	b.DeclareDirective(dir("onField1"))
	b.DeclareDirective(dir("onField2"))
	obj := schema.Object[orderBox](b, "Box", schema.Directive("onType", ""))
	schema.FieldFuncNoArgs(obj, "v", func(ctx context.Context, _ *orderBox) (string, error) {
		trace = append(trace, "resolve")
		return "x", nil
	}, schema.Directive("onField1", ""), schema.Directive("onField2", ""))
	schema.QueryNoArgs(b, "box", func(ctx context.Context) (*orderBox, error) { return &orderBox{}, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	mw := func(name string) graft.FieldMiddleware {
		f := tag(name)
		return graft.FieldMiddleware{Type: "Box", Func: func(ctx context.Context, _ *graft.FieldInfo, next func(context.Context) (any, error)) (any, error) {
			return f(ctx, next)
		}}
	}
	r, err := graft.NewRouter(s, nil, graft.Config{Logger: quietLogger, FieldMiddleware: []graft.FieldMiddleware{mw("mw1"), mw("mw2")}})
	if err != nil {
		t.Fatal(err)
	}
	res := post(t, r, `{ box { v } }`)
	if want := `{"data":{"box":{"v":"x+onField2+onField1+onType+mw2+mw1"}}}`; res.raw != want {
		t.Fatalf("got  %s\nwant %s", res.raw, want)
	}
	want := []string{"enter mw1", "enter mw2", "enter onType", "enter onField1", "enter onField2", "resolve",
		"leave onField2 x", "leave onField1 x+onField2", "leave onType x+onField2+onField1",
		"leave mw2 x+onField2+onField1+onType", "leave mw1 x+onField2+onField1+onType+mw2"}
	if fmt.Sprint(trace) != fmt.Sprint(want) {
		t.Fatalf("trace\n%q\nwant\n%q", trace, want)
	}
}
