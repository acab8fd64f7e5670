package pqstate

import (
	"context"
	"strings"
	"testing"

	"github.com/graftgql/graft/persisted"
)

func TestPrivateCacheControl(t *testing.T) {
	for in, want := range map[string]string{
		"":                               "",
		"public, max-age=60":             "private, max-age=60",
		"max-age=60":                     "private, max-age=60",
		"public,max-age=60,s-maxage=600": "private, max-age=60",
		"private, max-age=5":             "private, max-age=5",
		"no-store":                       "no-store",
		"PUBLIC, Max-Age=60":             "private, Max-Age=60",
	} {
		if got := PrivateCacheControl(in); got != want {
			t.Errorf("PrivateCacheControl(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRegisterSkipsLargeQueries: a query over MaxQueryBytes runs but is
// never stored.
func TestRegisterSkipsLargeQueries(t *testing.T) {
	ctx := context.Background()
	store, _ := persisted.NewMemoryStore(10)
	p, err := New(persisted.Options{Store: store, MaxQueryBytes: 100})
	if err != nil {
		t.Fatal(err)
	}
	small, large := "{ a }", "{ a }"+strings.Repeat(" ", 100)
	p.Register(ctx, "", p.Hash(small), small)
	p.Register(ctx, "", p.Hash(large), large)
	if _, ok, _ := store.Get(ctx, p.Hash(small)); !ok {
		t.Error("the small query was not stored")
	}
	if _, ok, _ := store.Get(ctx, p.Hash(large)); ok {
		t.Error("the query over MaxQueryBytes was stored")
	}
	if _, err := New(persisted.Options{MaxQueryBytes: -1}); err == nil {
		t.Error("a negative MaxQueryBytes was accepted")
	}
}
