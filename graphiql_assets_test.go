package graft_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/graphiql"
)

func TestGraphiQLEmbeddedAssets(t *testing.T) {
	r := newTestRouter(t, graft.Config{GraphiQL: &graft.GraphiQLConfig{Assets: graft.GraphiQLAssetsEmbedded}})
	get := func(path, acceptEncoding string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		if acceptEncoding != "" {
			req.Header.Set("Accept-Encoding", acceptEncoding)
		}
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req)
		return w
	}
	page := get("/graphiql", "")
	csp := page.Header().Get("Content-Security-Policy")
	if page.Code != 200 || !strings.Contains(csp, "script-src 'self' 'sha256-") || strings.Contains(csp, "jsdelivr") ||
		strings.Contains(page.Body.String(), "jsdelivr") {
		t.Fatalf("page: %d, CSP %s", page.Code, csp)
	}
	base := graphiql.EmbeddedBase("/graphiql")
	for _, a := range graphiql.Assets {
		name := a.Package + "/" + a.File
		path := base + "/" + name
		if !strings.Contains(page.Body.String(), `"`+path+`"`) {
			t.Errorf("the page does not load %s", path)
		}
		want, ct, _ := graphiql.EmbeddedFilePlain(name)
		plain := get(path, "")
		if plain.Code != 200 || !bytes.Equal(plain.Body.Bytes(), want) || plain.Header().Get("Content-Type") != ct ||
			plain.Header().Get("Content-Encoding") != "" || !strings.Contains(plain.Header().Get("Cache-Control"), "immutable") {
			t.Errorf("%s plain: %d %v", name, plain.Code, plain.Header())
		}
		gz := get(path, "br, gzip")
		if gz.Header().Get("Content-Encoding") != "gzip" {
			t.Fatalf("%s: Content-Encoding %q", name, gz.Header().Get("Content-Encoding"))
		}
		zr, err := gzip.NewReader(gz.Body)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s gzip: %v, %d bytes", name, err, len(got))
		}
	}
	if w := get(base+"/react/umd/react.production.min.js", "gzip;q=0"); w.Code != 200 || w.Header().Get("Content-Encoding") != "" {
		t.Error("gzip;q=0 must not get gzip")
	}
	if w := get(base+"/graphiql/package.json", ""); w.Code != 404 {
		t.Errorf("unknown asset: %d", w.Code)
	}
	w := httptest.NewRecorder()
	r.ServeHTTP(w, httptest.NewRequest(http.MethodPost, base+"/react/umd/react.production.min.js", nil))
	if w.Code != 405 || w.Header().Get("Allow") != "GET, HEAD" {
		t.Errorf("POST asset: %d %v", w.Code, w.Header())
	}

	cdn := newTestRouter(t, graft.Config{GraphiQL: &graft.GraphiQLConfig{Assets: graft.GraphiQLAssetsCDN}})
	w = httptest.NewRecorder()
	cdn.ServeHTTP(w, httptest.NewRequest(http.MethodGet, base+"/react/umd/react.production.min.js", nil))
	if w.Code != 404 {
		t.Errorf("CDN mode serves no assets: %d", w.Code)
	}
	// Embedded is the default, so the IDE works offline; a base URL of
	// self-hosted assets implies the CDN mode.
	def := newTestRouter(t, graft.Config{GraphiQL: &graft.GraphiQLConfig{}})
	w = httptest.NewRecorder()
	def.ServeHTTP(w, httptest.NewRequest(http.MethodGet, base+"/react/umd/react.production.min.js", nil))
	if w.Code != 200 {
		t.Errorf("default GraphiQL serves no embedded assets: %d", w.Code)
	}
	hosted := newTestRouter(t, graft.Config{GraphiQL: &graft.GraphiQLConfig{AssetBaseURL: "https://static.example"}})
	w = httptest.NewRecorder()
	hosted.ServeHTTP(w, httptest.NewRequest(http.MethodGet, base+"/react/umd/react.production.min.js", nil))
	if w.Code != 404 {
		t.Errorf("AssetBaseURL with embedded assets: %d", w.Code)
	}
	for _, g := range []graft.GraphiQLConfig{{Assets: "local"}, {Assets: graft.GraphiQLAssetsEmbedded, AssetBaseURL: "/static"}} {
		if _, err := graft.NewRouter(testSchema(t), nil, graft.Config{GraphiQL: &g}); err == nil {
			t.Errorf("%+v must be refused", g)
		}
	}
}
