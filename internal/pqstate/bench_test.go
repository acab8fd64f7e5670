package pqstate

import (
	"context"
	"testing"

	"github.com/graftgql/graft/persisted"
)

func BenchmarkResolve(b *testing.B) {
	ctx := context.Background()
	store, _ := persisted.NewMemoryStore(persisted.DefaultStoreSize)
	_ = store.Set(ctx, hHero, qHero)
	apq, _ := New(persisted.Options{Store: store})
	list, _ := persisted.NewSafelistStore(map[string]string{hHero: qHero})
	sl, _ := New(persisted.Options{Mode: persisted.Safelist, Store: list})
	hashOnly := pqExt(sha256Key, hHero)
	cases := []struct {
		name  string
		p     *PersistedQueries
		query string
		ext   map[string]any
	}{
		{"APQ hash-only hit, memory store", apq, "", hashOnly},
		{"APQ full query, no extension", apq, qHero, nil},
		{"APQ registration (hash and query)", apq, qDroid, pqExt(sha256Key, hDroid)},
		{"safelist hash-only hit", sl, "", hashOnly},
		{"safelist plain query", sl, qHero, nil},
	}
	for _, bc := range cases {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bc.p.Resolve(ctx, false, bc.query, bc.ext); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
