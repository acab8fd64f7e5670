package graft_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/schema"
)

type mwAccount struct {
	Name   string
	Secret string
}

type mwArgs struct{ Times int }

func jsonBody(query, op string) (string, error) {
	return fmt.Sprintf(`{"query":%q,"operationName":%q}`, query, op), nil
}

func TestFieldMiddlewareOrderScopeAndPlainFields(t *testing.T) {
	b := schema.New()
	schema.QueryNoArgs(b, "account", func(ctx context.Context) (*mwAccount, error) {
		return &mwAccount{Name: "ann", Secret: "s3"}, nil
	})
	schema.Query(b, "repeat", func(ctx context.Context, a mwArgs) ([]string, error) {
		return slices.Repeat([]string{"x"}, a.Times), nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var calls []string
	log := func(tag string) func(ctx context.Context, fi *graft.FieldInfo, next func(context.Context) (any, error)) (any, error) {
		return func(ctx context.Context, fi *graft.FieldInfo, next func(context.Context) (any, error)) (any, error) {
			mu.Lock()
			calls = append(calls, fmt.Sprintf("%s %s.%s %v %v", tag, fi.ParentType, fi.FieldName, fi.Path, fi.Arguments()))
			mu.Unlock()
			return next(ctx)
		}
	}
	mws := []graft.FieldMiddleware{
		{Func: log("global")},
		{Type: "mwAccount", Func: log("type")},
		{Type: "mwAccount", Field: "secret", Func: func(ctx context.Context, fi *graft.FieldInfo, next func(context.Context) (any, error)) (any, error) {
			return nil, graft.NewError(graft.CodeForbidden, "no secrets")
		}},
	}
	r, err := graft.NewRouter(s, nil, graft.Config{FieldMiddleware: mws, Logger: quietLogger})
	if err != nil {
		t.Fatal(err)
	}
	res := post(t, r, `{ account { name secret } repeat(times: 2) }`)
	if res.status != 200 || res.code(0) != graft.CodeForbidden || !strings.Contains(res.raw, `"account":null`) ||
		!strings.Contains(res.raw, `"repeat":["x","x"]`) {
		t.Fatalf("%d %s\n%q", res.status, res.raw, calls)
	}
	want := []string{
		"global Query.account [account] map[]",
		"global mwAccount.name [account name] map[]",
		"type mwAccount.name [account name] map[]",
		"global mwAccount.secret [account secret] map[]",
		"type mwAccount.secret [account secret] map[]",
		"global Query.repeat [repeat] map[times:2]",
	}
	if !slices.Equal(calls, want) {
		t.Fatalf("calls\n%q\nwant\n%q", calls, want)
	}
}
