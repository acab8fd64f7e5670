package pqstate

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/graftgql/graft/persisted"
)

// otherStore is a Store of a type pqstate does not know: it is asked
// through the Store interface.
type otherStore struct{ persisted.Store }

// TestResolveExtensionMatchesResolve checks that the typed entry point
// (with its short path for a hash found in the memory store) answers
// exactly as Resolve does for the same extension: in both modes, with both
// algorithms, with GET refused, and with a store of another type.
func TestResolveExtensionMatchesResolve(t *testing.T) {
	logger, _ := newTestLogger()
	exts := []Extension{
		{Version: 1, SHA256Hash: hHero},
		{Version: 1, SHA256Hash: hHero, LowerHex: true},
		{Version: 1, SHA256Hash: hUnlist, LowerHex: true},
		{Version: 1, SHA256Hash: hHero, SHA512Hash: hHero512, LowerHex: true},
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
	for _, alg := range []string{persisted.SHA256, persisted.SHA512} {
		safelist, err := persisted.NewSafelistStore(map[string]string{persisted.Hash(alg, qHero): qHero})
		if err != nil {
			t.Fatal(err)
		}
		memory, err := persisted.NewMemoryStore(10)
		if err != nil {
			t.Fatal(err)
		}
		for _, opts := range []persisted.Options{
			{Mode: persisted.APQ, HashAlgorithm: alg, Logger: logger},
			{Mode: persisted.APQ, HashAlgorithm: alg, Logger: logger, EnableGet: new(false)},
			{Mode: persisted.APQ, HashAlgorithm: alg, Logger: logger, Store: otherStore{memory}},
			{Mode: persisted.Safelist, HashAlgorithm: alg, Store: safelist, Logger: logger},
		} {
			p, err := New(opts)
			if err != nil {
				t.Fatal(err)
			}
			p.Register(context.Background(), "", persisted.Hash(alg, qHero), qHero)
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
