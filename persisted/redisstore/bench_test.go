package redisstore

import (
	"context"
	"testing"

	"github.com/graftgql/graft/internal/pqstate"
	"github.com/graftgql/graft/internal/testenv"
	"github.com/graftgql/graft/persisted"
)

// BenchmarkResolveHit measures a hash-only APQ hit through the persisted-query resolver with
// the query in Redis, straight and behind the local cache.
func BenchmarkResolveHit(b *testing.B) {
	addr, _ := testenv.StartRedis(b)
	ctx := context.Background()
	hashOnly := map[string]any{"persistedQuery": map[string]any{"version": float64(1), "sha256Hash": hash}}
	cases := []struct {
		name  string
		ctxTO bool
		opts  Options
	}{
		{"redis", true, Options{}},
		{"redis, client without context timeouts", false, Options{}},
		{"redis with local cache", true, Options{LocalCacheSize: 100}},
	}
	for _, bc := range cases {
		b.Run(bc.name, func(b *testing.B) {
			s := New(newClient(b, addr, bc.ctxTO), bc.opts)
			if err := s.Set(ctx, hash, query); err != nil {
				b.Fatal(err)
			}
			p, err := pqstate.New(persisted.Options{Store: s})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				res, err := p.Resolve(ctx, false, "", hashOnly)
				if err != nil || res.Query != query {
					b.Fatalf("Resolve = %+v, %v", res, err)
				}
			}
		})
	}
}
