package graphiql

import (
	"bytes"
	"compress/gzip"
	"embed"
	"io"
	"strings"
	"sync"
)

// The files of Assets, exactly as published in their npm packages,
// gzip-compressed (about 650 KB for 1.6 MB of files), under
// assets/<Package>/<File>.gz. A test holds each to its Integrity value.
//
//go:embed assets
var embedded embed.FS

// EmbeddedTag names the embedded asset versions. It is part of the path
// the embedded assets are served under (EmbeddedBase), so a new version is
// a new URL and the files can be cached for good.
const EmbeddedTag = "graphiql-" + GraphiQLVersion + "-react-" + ReactVersion

// EmbeddedBase returns the AssetBaseURL under which a server serves the
// embedded assets for a page at pagePath: pagePath + "/assets/" +
// EmbeddedTag. Serve each file there with EmbeddedFile.
func EmbeddedBase(pagePath string) string {
	return strings.TrimRight(pagePath, "/") + "/assets/" + EmbeddedTag
}

// EmbeddedFile returns the embedded asset name ("<Package>/<File>", as
// Asset.URL lays out under a base) in gzip form and its Content-Type; ok
// is false for any other name.
func EmbeddedFile(name string) (gz []byte, contentType string, ok bool) {
	for _, a := range Assets {
		if a.Package+"/"+a.File != name {
			continue
		}
		b, err := embedded.ReadFile("assets/" + name + ".gz")
		if err != nil {
			return nil, "", false
		}
		contentType = "text/javascript; charset=utf-8"
		if a.Kind == Stylesheet {
			contentType = "text/css; charset=utf-8"
		}
		return b, contentType, true
	}
	return nil, "", false
}

var (
	plainMu    sync.Mutex
	plainFiles = map[string][]byte{}
)

// EmbeddedFilePlain is EmbeddedFile uncompressed, for clients that do not
// accept gzip; the result is kept, and must not be modified.
func EmbeddedFilePlain(name string) (body []byte, contentType string, ok bool) {
	gz, contentType, ok := EmbeddedFile(name)
	if !ok {
		return nil, "", false
	}
	plainMu.Lock()
	defer plainMu.Unlock()
	if b, ok := plainFiles[name]; ok {
		return b, contentType, true
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, "", false
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil, "", false
	}
	plainFiles[name] = b
	return b, contentType, true
}
