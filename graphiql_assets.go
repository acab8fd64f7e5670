package graft

import (
	"net/http"
	"strings"

	"github.com/graftgql/graft/graphiql"
	"github.com/graftgql/graft/internal/gqlerr"
	"github.com/graftgql/graft/internal/httpapi"
)

// serveGraphiQLAsset serves one of GraphiQL's embedded files
// (GraphiQLConfig.Assets embedded): gzip-compressed to clients that accept
// it, cacheable for good since its path names its versions.
func (r *Router) serveGraphiQLAsset(raw *httpapi.RawRequest, resp *httpapi.Response) {
	if raw.Method != http.MethodGet && raw.Method != http.MethodHead {
		resp.Status = http.StatusMethodNotAllowed
		resp.SetHeader("Allow", "GET, HEAD")
		resp.ContentType = httpapi.ContentTypeJSON
		resp.Body = appendErrors(resp.Body[:0], gqlerr.New(gqlerr.BadRequest, "GraphiQL's assets are served over GET"))
		return
	}
	name := strings.TrimPrefix(raw.Path, r.graphiqlAssets)
	gzipOK := raw.Header != nil && acceptsGzip(raw.Header("Accept-Encoding"))
	body, ct, ok := graphiql.EmbeddedFile(name)
	if ok && !gzipOK {
		body, ct, ok = graphiql.EmbeddedFilePlain(name)
	}
	if !ok {
		resp.Status = http.StatusNotFound
		resp.ContentType = httpapi.ContentTypeJSON
		resp.Body = appendErrors(resp.Body[:0], gqlerr.New(gqlerr.BadRequest, "Not found"))
		return
	}
	resp.Status = http.StatusOK
	resp.ContentType = ct
	resp.Header = http.Header{
		"Cache-Control":          {"public, max-age=31536000, immutable"},
		"X-Content-Type-Options": {"nosniff"},
		"Vary":                   {"Accept-Encoding"},
	}
	if gzipOK {
		resp.Header["Content-Encoding"] = []string{"gzip"}
	}
	resp.Body = append(resp.Body[:0], body...)
}

// acceptsGzip reports whether an Accept-Encoding header allows gzip.
func acceptsGzip(ae string) bool {
	for part := range strings.SplitSeq(ae, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			continue
		}
		q := strings.ReplaceAll(strings.ToLower(params), " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}
