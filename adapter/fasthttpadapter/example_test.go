package fasthttpadapter_test

import (
	"context"
	"fmt"
	"log"

	"github.com/valyala/fasthttp"

	"github.com/graftgql/graft"
	fasthttpadapter "github.com/graftgql/graft/adapter/fasthttpadapter"
	"github.com/graftgql/graft/schema"
)

// Serve a schema on fasthttp with health routes beside the router.
func ExampleServe() {
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(context.Context) (string, error) { return "world", nil })
	layer := graft.NewLayer()
	router, err := graft.ToRouter(b, layer, graft.Config{})
	if err != nil {
		log.Fatal(err)
	}
	graphql := fasthttpadapter.Handler(router)
	handler := func(ctx *fasthttp.RequestCtx) {
		if string(ctx.Path()) == "/health" {
			ctx.SetContentType("application/json")
			ctx.SetBodyString(`{"status":"ok"}`)
			return
		}
		graphql(ctx)
	}
	err = fasthttpadapter.Serve(context.Background(), router, fasthttpadapter.ServeOptions{
		Port:    4000,
		Handler: handler,
		OnStart: func(url string) { fmt.Println("GraphQL at", url+"/graphql") },
	})
	if err != nil {
		log.Fatal(err)
	}
}
