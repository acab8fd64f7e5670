package persisted

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

// TestResolveExtensionMatchesResolve checks that the typed entry point
// answers exactly as Resolve does for the same extension, in both modes
// and with both algorithms.
func TestResolveExtensionMatchesResolve(t *testing.T) {
	logger, _ := newTestLogger()
	exts := []Extension{
		{Version: 1, SHA256Hash: hHero},
		{Version: 1, SHA256Hash: strings.ToUpper(hHero)},
		{Version: 1, SHA256Hash: hUnlist},
		{Version: 2, SHA256Hash: hHero},
		{Version: 1, SHA256Hash: "zz"},
		{Version: 1, SHA512Hash: hHero512},
		{Version: 1, SHA256Hash: hHero, SHA512Hash: hDroid512},
		{Version: 1, SHA512Hash: "nothex"},
	}
	asMap := func(e Extension) map[string]any {
		m := map[string]any{"version": e.Version}
		if e.SHA256Hash != "" {
			m["sha256Hash"] = e.SHA256Hash
		}
		if e.SHA512Hash != "" {
			m["sha512Hash"] = e.SHA512Hash
		}
		return map[string]any{"persistedQuery": m}
	}
	for _, alg := range []string{SHA256, SHA512} {
		safelist, err := NewSafelistStore(map[string]string{Hash(alg, qHero): qHero})
		if err != nil {
			t.Fatal(err)
		}
		for _, opts := range []Options{
			{Mode: APQ, HashAlgorithm: alg, Logger: logger},
			{Mode: Safelist, HashAlgorithm: alg, Store: safelist, Logger: logger},
		} {
			p, err := New(opts)
			if err != nil {
				t.Fatal(err)
			}
			p.Register(context.Background(), Hash(alg, qHero), qHero)
			for _, ext := range exts {
				for _, query := range []string{"", qHero, qUnlist} {
					for _, isGet := range []bool{false, true} {
						r1, e1 := p.Resolve(context.Background(), isGet, query, asMap(ext))
						r2, e2 := p.ResolveExtension(context.Background(), isGet, query, ext)
						if !reflect.DeepEqual(r1, r2) || !reflect.DeepEqual(e1, e2) {
							t.Fatalf("%s %s %+v query %q get %v:\nResolve          %+v %v\nResolveExtension %+v %v",
								opts.Mode, alg, ext, query, isGet, r1, e1, r2, e2)
						}
					}
				}
			}
		}
	}
}
