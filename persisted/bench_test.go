package persisted

import (
	"context"
	"testing"
)

func BenchmarkResolve(b *testing.B) {
	ctx := context.Background()
	store, _ := NewMemoryStore(DefaultStoreSize)
	_ = store.Set(ctx, hHero, qHero)
	apq, _ := New(Options{Store: store})
	list, _ := NewSafelistStore(map[string]string{hHero: qHero})
	sl, _ := New(Options{Mode: Safelist, Store: list})
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
