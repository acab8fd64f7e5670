package graft_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/schema"
)

type item struct{ ID int }

func errorsRouter(t *testing.T) *graft.Router {
	t.Helper()
	b := schema.New()
	schema.QueryNoArgs(b, "forbidden", func(ctx context.Context) (*string, error) {
		return nil, graft.WrapError(errors.New("row 7 belongs to user 3"), graft.CodeForbidden, "Not yours")
	})
	schema.QueryNoArgs(b, "detailed", func(ctx context.Context) (*string, error) {
		return nil, &graft.Error{Message: "Slow down", Code: "RATE_LIMITED", Details: map[string]any{"retryAfter": 3}}
	})
	schema.QueryNoArgs(b, "partial", func(ctx context.Context) (string, error) {
		graft.AddError(ctx, graft.NewError(graft.CodeBadUserInput, "title is too long"))
		graft.AddError(ctx, graft.NewError(graft.CodeBadUserInput, "body is empty"))
		return "saved what could be saved", nil
	})
	items := schema.Object[item](b, "Item")
	schema.FieldFuncNoArgs(items, "check", func(ctx context.Context, it *item) (int, error) {
		if it.ID == 2 {
			graft.AddError(ctx, graft.NewError("ODD", "item 2 is odd"))
		}
		return it.ID, nil
	}, schema.Concurrent())
	schema.QueryNoArgs(b, "items", func(ctx context.Context) ([]*item, error) {
		return []*item{{1}, {2}, {3}}, nil
	})
	r, err := graft.ToRouter(b, nil, graft.Config{MaskErrors: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestGraftErrorKeepsMessageAndCodeUnderMasking(t *testing.T) {
	r := errorsRouter(t)
	for _, tc := range []struct{ query, want string }{
		{"{ forbidden }", `{"errors":[{"message":"Not yours","locations":[{"line":1,"column":3}],"path":["forbidden"],"extensions":{"code":"FORBIDDEN"}}],"data":{"forbidden":null}}`},
		{"{ detailed }", `{"errors":[{"message":"Slow down","locations":[{"line":1,"column":3}],"path":["detailed"],"extensions":{"code":"RATE_LIMITED","retryAfter":3}}],"data":{"detailed":null}}`},
	} {
		status, body := r.Execute(context.Background(), graft.Request{Query: tc.query})
		if status != 200 || string(body) != tc.want {
			t.Errorf("%s:\n got %d %s\nwant %s", tc.query, status, body, tc.want)
		}
	}
}

func TestAddErrorReportsSeveralErrorsFromOneField(t *testing.T) {
	r := errorsRouter(t)
	status, body := r.Execute(context.Background(), graft.Request{Query: "{ partial }"})
	want := `{"errors":[` +
		`{"message":"title is too long","locations":[{"line":1,"column":3}],"path":["partial"],"extensions":{"code":"BAD_USER_INPUT"}},` +
		`{"message":"body is empty","locations":[{"line":1,"column":3}],"path":["partial"],"extensions":{"code":"BAD_USER_INPUT"}}` +
		`],"data":{"partial":"saved what could be saved"}}`
	if status != 200 || string(body) != want {
		t.Fatalf("got %d %s\nwant %s", status, body, want)
	}
	// Concurrent resolvers attach their errors to their own path.
	_, body = r.Execute(context.Background(), graft.Request{Query: "{ items { check } }"})
	want = `{"errors":[{"message":"item 2 is odd","locations":[{"line":1,"column":11}],"path":["items",1,"check"],"extensions":{"code":"ODD"}}],` +
		`"data":{"items":[{"check":1},{"check":2},{"check":3}]}}`
	if string(body) != want {
		t.Fatalf("concurrent: got %s\nwant %s", body, want)
	}
	if graft.AddError(context.Background(), errors.New("x")) {
		t.Fatal("AddError outside a resolver reported true")
	}
}

func TestWrappedGraftErrorShowsItsOwnMessage(t *testing.T) {
	b := schema.New()
	schema.QueryNoArgs(b, "wrapped", func(ctx context.Context) (*string, error) {
		return nil, fmt.Errorf("loading row 7 for tenant 3: %w", graft.NewError(graft.CodeForbidden, "Not yours"))
	})
	r, err := graft.ToRouter(b, nil, graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	_, body := r.Execute(context.Background(), graft.Request{Query: "{ wrapped }"})
	want := `{"errors":[{"message":"Not yours","locations":[{"line":1,"column":3}],"path":["wrapped"],"extensions":{"code":"FORBIDDEN"}}],"data":{"wrapped":null}}`
	if string(body) != want {
		t.Fatalf("got %s\nwant %s", body, want)
	}
}
