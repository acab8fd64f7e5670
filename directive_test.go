package graft_test

import (
	"context"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/schema"
)

type roleKey struct{}

type dirRole string

type dirPost struct {
	Title string
}

func directiveSchema(t *testing.T) *schema.Schema {
	t.Helper()
	b := schema.New()
	schema.Enum(b, "Role", []schema.EnumValueDef[dirRole]{{Name: "ADMIN", Value: "ADMIN"}, {Name: "USER", Value: "USER"}})
	b.DeclareDirective(schema.DirectiveDef{
		Name: "hasRole", Description: "Only users with the role may read the field.",
		Args: "role: Role!", Locations: []schema.DirectiveLocation{"FIELD_DEFINITION", "OBJECT"},
		Func: func(ctx context.Context, args map[string]any, next func(context.Context) (any, error)) (any, error) {
			if ctx.Value(roleKey{}) != args["role"] {
				return nil, graft.NewError(graft.CodeForbidden, "requires role "+args["role"].(string))
			}
			return next(ctx)
		},
	})
	schema.QueryNoArgs(b, "public", func(ctx context.Context) (string, error) { return "ok", nil })
	schema.QueryNoArgs(b, "audit", func(ctx context.Context) (*string, error) { s := "secret"; return &s, nil },
		schema.Directive("hasRole", "role: ADMIN"))
	schema.QueryNoArgs(b, "post", func(ctx context.Context) (*dirPost, error) { return &dirPost{Title: "t"}, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestDirectiveSDLIntrospectionAndBehaviour(t *testing.T) {
	s := directiveSchema(t)
	sdl := s.SDL()
	for _, want := range []string{"audit: String @hasRole(role: ADMIN)", `"""Only users with the role may read the field."""`,
		"directive @hasRole(role: Role!) on FIELD_DEFINITION | OBJECT"} {
		if !strings.Contains(sdl, want) {
			t.Fatalf("SDL lacks %q:\n%s", want, sdl)
		}
	}
	auth := func(ctx context.Context, r *graft.AuthRequest) (context.Context, error) {
		if role := r.Header("X-Role"); role != "" {
			return context.WithValue(ctx, roleKey{}, role), nil
		}
		return ctx, nil
	}
	r, err := graft.NewRouter(s, nil, graft.Config{Auth: auth, Logger: quietLogger})
	if err != nil {
		t.Fatal(err)
	}
	res := post(t, r, `{ __schema { directives { name locations args { name type { kind ofType { name } } } } } }`)
	if !strings.Contains(res.raw, `{"name":"hasRole","locations":["FIELD_DEFINITION","OBJECT"],"args":[{"name":"role","type":{"kind":"NON_NULL","ofType":{"name":"Role"}}}]}`) {
		t.Fatalf("introspection: %s", res.raw)
	}
	res = post(t, r, `{ public audit }`)
	if res.code(0) != graft.CodeForbidden || res.body.Data["public"] != "ok" || res.body.Data["audit"] != nil {
		t.Fatalf("anonymous: %s", res.raw)
	}
	res = post(t, r, `{ public audit }`, "X-Role", "ADMIN")
	if len(res.body.Errors) != 0 || res.body.Data["audit"] != "secret" {
		t.Fatalf("admin: %s", res.raw)
	}
}
