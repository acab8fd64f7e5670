package graphiql

import (
	"crypto/sha512"
	"encoding/base64"
	"strings"
	"testing"
)

// TestEmbeddedAssetsMatchIntegrity holds every embedded file to the
// Subresource Integrity value the page pins, so the embedded copy is
// exactly the published npm file the CDN serves.
func TestEmbeddedAssetsMatchIntegrity(t *testing.T) {
	total, gz := 0, 0
	for _, a := range Assets {
		name := a.Package + "/" + a.File
		z, _, ok := EmbeddedFile(name)
		if !ok {
			t.Fatalf("%s is not embedded", name)
		}
		b, ct, ok := EmbeddedFilePlain(name)
		if !ok {
			t.Fatalf("%s does not decompress", name)
		}
		sum := sha512.Sum384(b)
		if got := "sha384-" + base64.StdEncoding.EncodeToString(sum[:]); got != a.Integrity {
			t.Errorf("%s: integrity %s, the page pins %s", name, got, a.Integrity)
		}
		if (a.Kind == Stylesheet) != strings.HasPrefix(ct, "text/css") {
			t.Errorf("%s: Content-Type %s", name, ct)
		}
		total, gz = total+len(b), gz+len(z)
	}
	t.Logf("embedded assets: %d bytes, %d gzip-compressed in the binary", total, gz)
	if _, _, ok := EmbeddedFile("graphiql/package.json"); ok {
		t.Error("only the files of Assets are served")
	}
}

// TestEmbeddedPageCSP: a page loading the embedded assets allows scripts
// and styles from 'self' only.
func TestEmbeddedPageCSP(t *testing.T) {
	p, err := NewPage(Options{AssetBaseURL: EmbeddedBase("/graphiql")})
	if err != nil {
		t.Fatal(err)
	}
	csp := p.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self' 'sha256-") || strings.Contains(csp, "cdn") {
		t.Fatalf("CSP %s", csp)
	}
	if !strings.Contains(string(p.Body), `src="/graphiql/assets/`+EmbeddedTag+`/react/umd/react.production.min.js"`) {
		t.Fatalf("page does not load the embedded react: %s", p.Body)
	}
}
