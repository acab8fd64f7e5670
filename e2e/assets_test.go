package e2e

import (
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/graftgql/graft/graphiql"
)

// TestGraphiQLAssetsMatchNPM recomputes the integrity hash of every file
// the GraphiQL page loads from the npm packages installed by `npm ci`, and
// checks that e2e/package.json pins the same versions as package graphiql,
// so the hard-coded hashes, the pinned CDN versions and the files served
// in the browser test cannot drift apart.
func TestGraphiQLAssetsMatchNPM(t *testing.T) {
	modules := nodeModules(t)

	pkg, err := os.ReadFile("package.json")
	if err != nil {
		t.Fatal(err)
	}
	var manifest struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := json.Unmarshal(pkg, &manifest); err != nil {
		t.Fatalf("package.json: %v", err)
	}

	for _, a := range graphiql.Assets {
		t.Run(a.Package+"/"+a.File, func(t *testing.T) {
			if got := manifest.Dependencies[a.Package]; got != a.Version {
				t.Errorf("package.json pins %s at %q, package graphiql at %q", a.Package, got, a.Version)
			}
			installed, err := os.ReadFile(filepath.Join(modules, a.Package, "package.json"))
			if err != nil {
				t.Fatal(err)
			}
			var meta struct {
				Version string `json:"version"`
			}
			if err := json.Unmarshal(installed, &meta); err != nil {
				t.Fatal(err)
			}
			if meta.Version != a.Version {
				t.Fatalf("node_modules has %s %s, want %s: run npm ci in e2e/", a.Package, meta.Version, a.Version)
			}
			data, err := os.ReadFile(filepath.Join(modules, a.Package, filepath.FromSlash(a.File)))
			if err != nil {
				t.Fatal(err)
			}
			sum := sha512.Sum384(data)
			want := "sha384-" + base64.StdEncoding.EncodeToString(sum[:])
			if a.Integrity != want {
				t.Errorf("integrity of %s@%s/%s = %s, the file hashes to %s", a.Package, a.Version, a.File, a.Integrity, want)
			}
		})
	}
}
