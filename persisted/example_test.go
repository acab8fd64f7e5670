package persisted_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/graftgql/graft/persisted"
)

// The APQ round trip: a client first sends only the hash, gets
// PersistedQueryNotFound, retries with the query, and from then on the hash
// alone is enough.
func Example() {
	ctx := context.Background()
	p, err := persisted.New(persisted.Options{Mode: persisted.APQ})
	if err != nil {
		panic(err)
	}
	query := "{ hero { name } }"
	ext := map[string]any{"persistedQuery": map[string]any{
		"version":    float64(1),
		"sha256Hash": persisted.Hash("sha256", query),
	}}

	_, err = p.Resolve(ctx, false, "", ext)
	var pe *persisted.Error
	if errors.As(err, &pe) {
		fmt.Println(pe.Status, pe.Err.Message, pe.CacheControl)
	}

	res, _ := p.Resolve(ctx, false, query, ext)
	if res.Register {
		// The router parses and validates res.Query first.
		p.Register(ctx, res.Hash, res.Query)
	}

	res, _ = p.Resolve(ctx, true, "", ext)
	fmt.Println(res.Query, "|", res.CacheControl)
	// Output:
	// 200 PersistedQueryNotFound private, no-cache, must-revalidate
	// { hero { name } } | public, max-age=60
}

// A safelist from a manifest refuses everything else.
func ExampleNewSafelistStore() {
	ctx := context.Background()
	allowed := "query Hero { hero { name } }"
	store, err := persisted.NewSafelistStore(map[string]string{persisted.Hash("sha256", allowed): allowed})
	if err != nil {
		panic(err)
	}
	p, err := persisted.New(persisted.Options{Mode: persisted.Safelist, Store: store})
	if err != nil {
		panic(err)
	}
	res, _ := p.Resolve(ctx, false, allowed, nil)
	fmt.Println(res.Query)
	_, err = p.Resolve(ctx, false, "{ secrets }", nil)
	fmt.Println(err)
	// Output:
	// query Hero { hero { name } }
	// Persisted query not in safelist
}
