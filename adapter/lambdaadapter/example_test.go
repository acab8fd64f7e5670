package lambdaadapter_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/aws/aws-lambda-go/events"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/adapter/lambdaadapter"
	"github.com/graftgql/graft/schema"
)

// Serve a schema from AWS Lambda. In main, pass the handler to
// lambda.Start from github.com/aws/aws-lambda-go/lambda; here it is called
// with an HTTP API event directly.
func ExampleHandler() {
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(context.Context) (string, error) { return "world", nil })
	layer := graft.NewLayer()
	router, err := graft.ToRouter(b, layer, graft.Config{})
	if err != nil {
		log.Fatal(err)
	}
	handler := lambdaadapter.Handler(router) // lambda.Start(handler)

	event, _ := json.Marshal(map[string]any{
		"version":        "2.0",
		"rawPath":        "/graphql",
		"headers":        map[string]string{"content-type": "application/json"},
		"requestContext": map[string]any{"stage": "$default", "http": map[string]string{"method": "POST"}},
		"body":           `{"query":"{ hello }"}`,
	})
	out, err := handler(context.Background(), event)
	if err != nil {
		log.Fatal(err)
	}
	resp := out.(events.APIGatewayV2HTTPResponse)
	fmt.Println(resp.StatusCode, resp.Body)
	// Output: 200 {"data":{"hello":"world"}}
}
