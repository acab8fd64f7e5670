package persisted

import (
	"strings"
	"testing"
)

func TestParseDocumentID(t *testing.T) {
	h := Hash(SHA256, "{ a }")
	h5 := Hash(SHA512, "{ a }")
	tests := []struct {
		id, key, alg string
		ok           bool
	}{
		{"sha256:" + h, h, SHA256, true},
		{"SHA256:" + strings.ToUpper(h), h, SHA256, true},
		{h, h, SHA256, true},
		{"sha512:" + h5, h5, SHA512, true},
		{"x-app:hello", "x-app:hello", "", true},
		{"sha256:" + h5, "", "", false},
		{"sha256:xyz", "", "", false},
		{"hello", "", "", false},
		{":hello", "", "", false},
		{"x-app:", "", "", false},
		{"", "", "", false},
		{strings.Repeat("a", 40), "", "", false}, // a sha1, codegen's default
	}
	for _, tc := range tests {
		key, alg, ok := ParseDocumentID(tc.id)
		if key != tc.key || alg != tc.alg || ok != tc.ok {
			t.Errorf("ParseDocumentID(%q) = %q, %q, %v; want %q, %q, %v", tc.id, key, alg, ok, tc.key, tc.alg, tc.ok)
		}
	}
}

func TestManifestWithDocumentIDs(t *testing.T) {
	h := Hash(SHA256, "{ a }")
	m, err := ParseManifest([]byte(`{"sha256:` + h + `":"{ a }","x-app:b":"{ b }"}`))
	if err != nil || m[h] != "{ a }" || m["x-app:b"] != "{ b }" || len(m) != 2 {
		t.Fatalf("got %v, %v", m, err)
	}
	if _, err := ParseManifest([]byte(`{"sha256:` + h + `":"{ b }"}`)); err == nil {
		t.Fatal("a sha256: id that is not the hash of its document must be refused")
	}
	if _, err := ParseManifest([]byte(`{"` + strings.Repeat("a", 40) + `":"{ a }"}`)); err == nil || !strings.Contains(err.Error(), "hashAlgorithm") {
		t.Fatalf("sha1 ids: %v", err)
	}
	s, err := NewSafelistStore(m)
	if err != nil || s.Algorithm() != SHA256 {
		t.Fatalf("NewSafelistStore: %v, %q", err, s.Algorithm())
	}
}
