package graft_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/graftgql/graft"
)

func TestErrorPresenter(t *testing.T) {
	var seen []error
	present := func(ctx context.Context, err error, ge *gqlerror.Error) *gqlerror.Error {
		seen = append(seen, err)
		if strings.Contains(err.Error(), "hunter2") {
			return &gqlerror.Error{Message: "Database unavailable", Path: ge.Path, Locations: ge.Locations,
				Extensions: map[string]any{"code": "DB_DOWN"}}
		}
		return nil // keep
	}
	r := newTestRouter(t, graft.Config{ErrorPresenter: present})
	res := post(t, r, `{ plainError fail }`)
	if len(res.body.Errors) != 2 || res.body.Errors[0]["message"] != "Database unavailable" || res.code(0) != "DB_DOWN" ||
		res.code(1) != "FORBIDDEN" || strings.Contains(res.raw, "hunter2") {
		t.Fatalf("%s", res.raw)
	}
	if len(seen) != 2 || !strings.Contains(seen[0].Error(), "hunter2") {
		t.Fatalf("seen %v", seen)
	}
}

func TestOnPanicGetsRequestContext(t *testing.T) {
	var mu sync.Mutex
	var got []string
	onPanic := func(ctx context.Context, v any, stack []byte) {
		mu.Lock()
		defer mu.Unlock()
		info := graft.RequestInfoFrom(ctx)
		got = append(got, info.RequestID+" "+v.(string)+" "+boolStr(len(stack) > 0))
	}
	r := newTestRouter(t, graft.Config{OnPanic: onPanic, RequestID: true})
	res := post(t, r, `{ boom hello }`, "X-Request-ID", "p-1")
	if res.code(0) != graft.CodeInternalServerError || res.body.Data["hello"] != "world" {
		t.Fatalf("%s", res.raw)
	}
	if len(got) != 1 || got[0] != "p-1 kaboom true" {
		t.Fatalf("got %q", got)
	}
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
