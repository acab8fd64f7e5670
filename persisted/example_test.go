package persisted_test

import (
	"context"
	"fmt"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/persisted"
	"github.com/graftgql/graft/schema"
)

func helloSchema() *schema.Builder {
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(context.Context) (string, error) { return "world", nil })
	return b
}

// The APQ round trip: a client first sends only the hash, gets
// PersistedQueryNotFound, retries with the query, and from then on the hash
// alone is enough.
func Example() {
	ctx := context.Background()
	router, err := graft.ToRouter(helloSchema(), nil, graft.Config{
		PersistedQueries: &persisted.Options{Mode: persisted.APQ},
	})
	if err != nil {
		panic(err)
	}
	query := "{ hello }"
	ext := map[string]any{"persistedQuery": map[string]any{
		"version":    float64(1),
		"sha256Hash": persisted.Hash(persisted.SHA256, query),
	}}

	status, body := router.Execute(ctx, graft.Request{Extensions: ext})
	fmt.Println(status, string(body))
	status, body = router.Execute(ctx, graft.Request{Query: query, Extensions: ext})
	fmt.Println(status, string(body))
	status, body = router.Execute(ctx, graft.Request{Extensions: ext})
	fmt.Println(status, string(body))
	// Output:
	// 200 {"errors":[{"message":"PersistedQueryNotFound","extensions":{"code":"PERSISTED_QUERY_NOT_FOUND"}}]}
	// 200 {"data":{"hello":"world"}}
	// 200 {"data":{"hello":"world"}}
}

// A safelist from a manifest refuses everything else.
func ExampleNewSafelistStore() {
	ctx := context.Background()
	allowed := "query Hello { hello }"
	store, err := persisted.NewSafelistStore(map[string]string{persisted.Hash(persisted.SHA256, allowed): allowed})
	if err != nil {
		panic(err)
	}
	router, err := graft.ToRouter(helloSchema(), nil, graft.Config{
		PersistedQueries: &persisted.Options{Mode: persisted.Safelist, Store: store},
	})
	if err != nil {
		panic(err)
	}
	status, body := router.Execute(ctx, graft.Request{Query: allowed})
	fmt.Println(status, string(body))
	status, _ = router.Execute(ctx, graft.Request{Query: "{ hello }"})
	fmt.Println(status)
	// Output:
	// 200 {"data":{"hello":"world"}}
	// 403
}
