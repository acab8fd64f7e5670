package persisted

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeFile writes content to name in a temporary directory and returns
// its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func apolloManifest(ops ...manifestOperation) string {
	b, _ := json.Marshal(manifest{Format: manifestFormat, Version: 1, Operations: ops})
	return string(b)
}

func relayManifest(entries map[string]string) string {
	b, _ := json.Marshal(entries)
	return string(b)
}

func TestLoadManifest(t *testing.T) {
	hero := manifestOperation{ID: hHero, Name: "Hero", Type: "query", Body: qHero}
	droid := manifestOperation{ID: hDroid, Name: "Droid", Type: "query", Body: qDroid}
	both := map[string]string{hHero: qHero, hDroid: qDroid}
	tests := []struct {
		name    string
		content string
		want    map[string]string
		wantErr string // after `persisted: load manifest "<path>": `
	}{
		{"apollo", apolloManifest(hero, droid), both, ""},
		{"apollo with uppercase ids", apolloManifest(manifestOperation{ID: strings.ToUpper(hHero), Name: "Hero", Body: qHero}),
			map[string]string{hHero: qHero}, ""},
		{"apollo with sha512 ids", apolloManifest(manifestOperation{ID: hHero512, Name: "Hero", Body: qHero}),
			map[string]string{hHero512: qHero}, ""},
		{"relay", relayManifest(both), both, ""},
		{"relay with sha512 ids", relayManifest(map[string]string{hDroid512: qDroid}), map[string]string{hDroid512: qDroid}, ""},
		{"apollo id of another body", apolloManifest(hero, manifestOperation{ID: hHero, Name: "GetUser", Body: qDroid}), nil,
			`operation "GetUser": id does not match the sha256 of its body`},
		{"apollo sha512 id of another body", apolloManifest(manifestOperation{ID: hHero512, Name: "GetUser", Body: qDroid}), nil,
			`operation "GetUser": id does not match the sha512 of its body`},
		{"apollo id not a hash", apolloManifest(manifestOperation{ID: "abc", Name: "GetUser", Body: qDroid}), nil,
			`operation "GetUser": id is not a sha256 or sha512 hex hash`},
		{"apollo operation without id", apolloManifest(manifestOperation{Name: "GetUser", Body: qDroid}), nil,
			`operation "GetUser": no id`},
		{"apollo operation without body or name", apolloManifest(hero, manifestOperation{ID: hDroid}), nil,
			`operation "#1": no body`},
		{"apollo without operations", apolloManifest(), nil, "the manifest has no operations"},
		{"apollo of another version", `{"format":"apollo-persisted-query-manifest","version":2,"operations":[]}`, nil,
			"unsupported Apollo manifest version (want 1)"},
		{"unknown format", `{"format":"graphql-codegen","version":1,"operations":[]}`, nil, `unknown manifest format "graphql-codegen"`},
		{"format not a string", `{"format":1}`, nil, "not an Apollo persisted query manifest"},
		{"relay id of another body", relayManifest(map[string]string{hHero: qDroid}), nil,
			`operation "` + hHero + `": id does not match the sha256 of its body`},
		{"relay value not a string", `{"` + hHero + `": 1}`, nil, "unknown manifest format"},
		{"empty relay map", `{}`, nil, "the manifest has no operations"},
		{"bad JSON", `{"format": `, nil, "not a JSON object"},
		{"a JSON list", `[]`, nil, "not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "manifest.json", tt.content)
			got, err := LoadManifest(path)
			if tt.wantErr != "" {
				prefix := `persisted: load manifest "` + path + `": `
				if err == nil || !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q then %q", err, prefix, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("LoadManifest = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestLoadManifestMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope.json")
	_, err := LoadManifest(path)
	if err == nil || !strings.HasPrefix(err.Error(), `persisted: load manifest "`+path+`": `) {
		t.Fatalf("error = %v, want one naming the file", err)
	}
}

func TestParseManifest(t *testing.T) {
	got, err := ParseManifest([]byte(relayManifest(map[string]string{hHero: qHero})))
	if err != nil || got[hHero] != qHero {
		t.Fatalf("ParseManifest = %v, %v", got, err)
	}
	if _, err := ParseManifest([]byte("nope")); err == nil || !strings.HasPrefix(err.Error(), "persisted: parse manifest: ") {
		t.Fatalf("error = %v, want a persisted: parse manifest error", err)
	}
}
