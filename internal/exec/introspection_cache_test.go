package exec

import (
	"context"
	"os"
	"testing"
)

// TestIntrospectionCacheBounded: an introspection-only answer is kept
// with its operation only when it is small and has no error.
func TestIntrospectionCacheBounded(t *testing.T) {
	e := newEngine(loadSDL(t, richSDL), nil, nil, nil, Options{})
	prepare := func(query string) *Operation {
		t.Helper()
		doc, errs := e.Prepare(query)
		if errs != nil {
			t.Fatal(errs)
		}
		op, gerr := doc.Operation("")
		if gerr != nil {
			t.Fatal(gerr)
		}
		if !op.cacheable {
			t.Fatalf("%s is not cacheable", query)
		}
		return op
	}
	small := prepare(`{ __schema { queryType { name } } }`)
	ans := e.Execute(context.Background(), small, nil, nil, nil)
	if c := small.cached.Load(); c == nil || string(*c) != string(ans) || e.cachedBytes.Load() != int64(len(ans)) {
		t.Fatalf("small answer %s not cached (cached bytes %d)", ans, e.cachedBytes.Load())
	}
	fanOut, err := os.ReadFile("../../limits/testdata/introspection_fanout2.graphql")
	if err != nil {
		t.Fatal(err)
	}
	big := prepare(string(fanOut))
	ans = e.Execute(context.Background(), big, nil, nil, nil)
	if len(ans) <= maxCachedAnswer {
		t.Fatalf("fan-out answer of %d bytes is not over maxCachedAnswer", len(ans))
	}
	if big.cached.Load() != nil || e.cachedBytes.Load() != int64(len(*small.cached.Load())) {
		t.Fatalf("an answer of %d bytes was cached (cached bytes %d)", len(ans), e.cachedBytes.Load())
	}
}
