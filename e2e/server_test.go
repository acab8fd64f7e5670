package e2e

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/graphiql"
)

// tamperedGraphiQLPath serves a GraphiQL page whose assets do not match
// their integrity hashes.
const tamperedGraphiQLPath = "/graphiql-tampered"

// assetFiles maps the URL path of each of graphiql.Assets under an asset
// base URL to its file in node_modules.
func assetFiles(modules string) map[string]string {
	files := make(map[string]string, len(graphiql.Assets))
	for _, a := range graphiql.Assets {
		files["/"+a.Package+"/"+a.File] = filepath.Join(modules, a.Package, filepath.FromSlash(a.File))
	}
	return files
}

// assetHandler serves exactly the files of graphiql.Assets from
// node_modules, at /<package>/<file> (the layout AssetBaseURL expects),
// and 404 for anything else, so the browser test proves that the listed
// files are all the page needs.
func assetHandler(modules string) http.Handler {
	files := assetFiles(modules)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		http.ServeFile(w, r, path)
	})
}

// tamperedAssetHandler serves the same files as assetHandler with one
// byte appended, so their integrity hashes no longer match.
func tamperedAssetHandler(modules string) http.Handler {
	files := assetFiles(modules)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		data, err := os.ReadFile(path)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		ctype := "text/javascript; charset=utf-8"
		if strings.HasSuffix(path, ".css") {
			ctype = "text/css; charset=utf-8"
		}
		w.Header().Set("Content-Type", ctype)
		_, _ = w.Write(append(data, '\n'))
	})
}

// startServer starts the starwars schema behind a real graft router on a
// loopback httptest server, with the GraphiQL assets at /assets/ when
// modules is not empty (and a GraphiQL page with altered assets at
// tamperedGraphiQLPath), and returns the server and the request recorder.
func startServer(t *testing.T, cfg graft.Config, modules string) (*httptest.Server, *recorder) {
	t.Helper()
	router, err := graft.NewRouter(starwarsSchema(t), nil, cfg)
	if err != nil {
		t.Fatalf("NewRouter: %v", err)
	}
	mux := http.NewServeMux()
	if modules != "" {
		mux.Handle("/assets/", http.StripPrefix("/assets", assetHandler(modules)))
		mux.Handle("/tampered/", http.StripPrefix("/tampered", tamperedAssetHandler(modules)))
		tampered, err := graphiql.Handler(graphiql.Options{Endpoint: graft.DefaultPath, AssetBaseURL: "/tampered"})
		if err != nil {
			t.Fatalf("graphiql.Handler: %v", err)
		}
		mux.Handle(tamperedGraphiQLPath, tampered)
	}
	mux.Handle("/", router)
	rec := &recorder{next: mux}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	return srv, rec
}

// endpoint returns the absolute URL of path on srv.
func endpoint(t *testing.T, srv *httptest.Server, path string) string {
	t.Helper()
	u, err := url.JoinPath(srv.URL, path)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
