package fasthttpadapter_test

import (
	"context"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/adapter/fasthttpadapter"
	"github.com/graftgql/graft/schema"
)

// TestHooksOverFasthttp shows the hooks, the extensions accumulator,
// response headers and the request ID on the fasthttp transport.
func TestHooksOverFasthttp(t *testing.T) {
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(ctx context.Context) (string, error) {
		graft.SetResponseHeader(ctx, "X-From-Resolver", "yes")
		return "world", nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	var phases []string
	h := graft.HookFuncs{AfterFunc: func(ctx context.Context, ev *graft.HookEvent) {
		phases = append(phases, ev.Phase.String())
		if ev.Phase == graft.PhaseExecuted {
			graft.SetExtension(ctx, "transport", "fasthttp")
		}
	}}
	r, err := graft.NewRouter(s, nil, graft.Config{Hooks: []graft.Hook{h}, RequestID: true})
	if err != nil {
		t.Fatal(err)
	}
	var c fasthttp.RequestCtx
	c.Request.Header.SetMethod("POST")
	c.Request.SetRequestURI("/graphql")
	c.Request.Header.SetContentType("application/json")
	c.Request.Header.Set("X-Request-ID", "fh-1")
	c.Request.SetBodyString(`{"query":"{ hello }"}`)
	fasthttpadapter.Handler(r)(&c)
	body := string(c.Response.Body())
	if c.Response.StatusCode() != 200 || !strings.Contains(body, `"extensions":{"transport":"fasthttp"}`) ||
		string(c.Response.Header.Peek("X-Request-ID")) != "fh-1" || string(c.Response.Header.Peek("X-From-Resolver")) != "yes" {
		t.Fatalf("%d %s %s", c.Response.StatusCode(), body, c.Response.Header.String())
	}
	if strings.Join(phases, ",") != "received,parsed,validated,analyzed,executed,answered" {
		t.Fatalf("phases %v", phases)
	}
}
