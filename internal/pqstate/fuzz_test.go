package pqstate

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/graftgql/graft/persisted"
)

// FuzzResolve feeds arbitrary extensions and queries to Resolve: it must
// never panic, and every error must be a complete *Error.
func FuzzResolve(f *testing.F) {
	f.Add(`{"persistedQuery":{"version":1,"sha256Hash":"`+hHero+`"}}`, "", false)
	f.Add(`{"persistedQuery":{"version":1,"sha256Hash":"`+hHero+`"}}`, qHero, true)
	f.Add(`{"persistedQuery":{"version":"1","sha512Hash":null}}`, qDroid, false)
	f.Add(`{"persistedQuery":[1,2]}`, "", true)
	f.Add(`{"persistedQuery":{"version":1e400}}`, "", false)
	store, _ := persisted.NewMemoryStore(8)
	_ = store.Set(context.Background(), hHero, qHero)
	list, _ := persisted.NewSafelistStore(map[string]string{hHero: qHero})
	apq, _ := New(persisted.Options{Store: store})
	sl, _ := New(persisted.Options{Mode: persisted.Safelist, Store: list})
	f.Fuzz(func(t *testing.T, extJSON, query string, isGet bool) {
		var ext map[string]any
		if json.Unmarshal([]byte(extJSON), &ext) != nil {
			return
		}
		for _, p := range []*PersistedQueries{apq, sl} {
			res, err := p.Resolve(context.Background(), isGet, query, ext)
			if err == nil {
				continue
			}
			var pe *Error
			if !errors.As(err, &pe) || pe.Err == nil || pe.Status == 0 || pe.Err.Extensions["code"] == nil {
				t.Fatalf("error %#v is not a complete *Error", err)
			}
			if res != (Resolution{}) {
				t.Fatalf("Resolution %+v alongside an error", res)
			}
		}
	})
}
