package pqstate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/graftgql/graft/persisted"
)

// TestNewAcceptsOptionsFromEnv checks that the options ConfigFromLookup
// reads from a manifest are options New accepts, for both algorithms.
func TestNewAcceptsOptionsFromEnv(t *testing.T) {
	for _, tt := range []struct {
		name string
		hash string
		env  map[string]string
	}{
		{"manifest implies safelist", hHero, map[string]string{}},
		{"sha512 manifest", hHero512, map[string]string{"PERSISTED_QUERIES_MODE": "safelist", "PERSISTED_QUERIES_HASH_ALGORITHM": "sha512"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "manifest.json")
			if err := os.WriteFile(path, []byte(`{"`+tt.hash+`": "`+qHero+`"}`), 0o600); err != nil {
				t.Fatal(err)
			}
			tt.env["PERSISTED_QUERIES_MANIFEST"] = path
			opts, err := persisted.ConfigFromLookup(func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok })
			if err != nil {
				t.Fatal(err)
			}
			p, err := New(opts)
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			res, err := p.Resolve(t.Context(), false, qHero, nil)
			if err != nil || res.Query != qHero {
				t.Errorf("Resolve(listed query) = %+v, %v", res, err)
			}
		})
	}
}
