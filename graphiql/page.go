package graphiql

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// ContentType is the media type of the rendered page.
const ContentType = "text/html; charset=utf-8"

// Options configures the page. The zero value is usable: it targets
// /graphql and loads the assets from DefaultCDN.
type Options struct {
	// Endpoint is the URL the page sends GraphQL requests to, absolute or
	// relative to the page. Empty means "/graphql".
	Endpoint string
	// AssetBaseURL, when set, is where the page loads its files from
	// instead of the CDN: an http(s) URL or an absolute path such as
	// "/static/npm", serving each asset at AssetBaseURL/Package/File (see
	// Assets). Integrity hashes apply all the same.
	AssetBaseURL string
	// Title is the page title. Empty means "GraphiQL".
	Title string
	// FrameAncestors is the Content-Security-Policy frame-ancestors
	// value: who may embed the page in a frame. Empty means 'none'; set,
	// for example, "'self'" to embed it in your own pages.
	FrameAncestors string
}

type pageAsset struct {
	URL       string
	Integrity string
}

type pageData struct {
	Title     string
	Styles    []pageAsset
	Scripts   []pageAsset
	Bootstrap string // the inline script: bootstrapHead, the endpoint, bootstrapTail
	Style     string // inlineStyle
}

// inlineStyle is the page's one inline style element's content.
const inlineStyle = `
html, body { height: 100%; margin: 0; }
#graphiql { height: 100vh; }
`

// bootstrapHead and bootstrapTail are the inline script that starts
// GraphiQL, around the endpoint's JavaScript string literal (see
// scriptString); the Content-Security-Policy allows the script by its
// hash.
//
// The page is put together by plain concatenation rather than with
// text/template: a binary that links text/template keeps every exported
// method of every type it holds (templates call methods by name), which
// made a server linking graft about 2.4 MB larger in memory.
const bootstrapHead = `
(function () {
  var container = document.getElementById("graphiql");
  if (typeof GraphiQL === "undefined" || typeof React === "undefined" || typeof ReactDOM === "undefined") {
    container.textContent = "GraphiQL could not be loaded: its scripts were blocked, unreachable or did not match their integrity hashes.";
    return;
  }
  var endpoint = `

const bootstrapTail = `;
  var url = new URL(endpoint, window.location.href).toString();
  var httpFetcher = GraphiQL.createFetcher({ url: url });
  // operationType returns the type of the operation to run, from the
  // top-level text of the document (strings, comments and selection sets
  // left out).
  function operationType(query, name) {
    var src = String(query || "").replace(/"""[\s\S]*?"""|"(?:\\.|[^"\\\n])*"|#[^\n]*/g, " ");
    var top = "", depth = 0;
    for (var i = 0; i < src.length; i++) {
      var c = src[i];
      if (c === "{") { depth++; top += " "; } else if (c === "}") { depth--; top += " "; } else if (depth === 0) { top += c; }
    }
    var re = /\b(query|mutation|subscription|fragment)\b\s*([_A-Za-z][_0-9A-Za-z]*)?/g, m;
    while ((m = re.exec(top))) {
      if (m[1] !== "fragment" && (!name || m[2] === name)) return m[1];
    }
    return "query";
  }
  // Subscriptions run over graphql-sse (distinct connections mode): each
  // next event is one result; stopping the run aborts the request.
  function sseFetcher(params, opts) {
    var controller = new AbortController();
    var headers = Object.assign({ "Content-Type": "application/json", "Accept": "text/event-stream" }, opts && opts.headers);
    return (async function* () {
      try {
        var res = await fetch(url, { method: "POST", headers: headers, body: JSON.stringify(params), signal: controller.signal });
        if (!(res.headers.get("Content-Type") || "").startsWith("text/event-stream")) {
          yield await res.json();
          return;
        }
        var reader = res.body.pipeThrough(new TextDecoderStream()).getReader(), buf = "";
        for (;;) {
          var r = await reader.read();
          if (r.done) return;
          buf += r.value;
          var end;
          while ((end = buf.indexOf("\n\n")) >= 0) {
            var event = "", data = "";
            buf.slice(0, end).split("\n").forEach(function (line) {
              if (line.indexOf("event:") === 0) event = line.slice(6).trim();
              else if (line.indexOf("data:") === 0) data += line.slice(5).trim();
            });
            buf = buf.slice(end + 2);
            if (event === "next") yield JSON.parse(data);
            if (event === "complete") return;
          }
        }
      } finally {
        controller.abort();
      }
    })();
  }
  var fetcher = function (params, opts) {
    return operationType(params.query, params.operationName) === "subscription" ? sseFetcher(params, opts) : httpFetcher(params, opts);
  };
  ReactDOM.createRoot(container).render(React.createElement(GraphiQL, {
    fetcher: fetcher,
    defaultEditorToolsVisibility: true
  }));
})();
`

// renderPage writes the HTML document. Every value is escaped with the
// escaper of its context (html.EscapeString for text and attributes; the
// bootstrap script holds the endpoint as a string literal already made
// safe by scriptString), which keeps integrity values byte for byte
// readable.
func renderPage(buf *bytes.Buffer, data *pageData) {
	buf.WriteString(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>`)
	buf.WriteString(html.EscapeString(data.Title))
	buf.WriteString("</title>\n<style>")
	buf.WriteString(data.Style)
	buf.WriteString("</style>\n")
	for _, a := range data.Styles {
		buf.WriteString(`<link rel="stylesheet" href="`)
		buf.WriteString(html.EscapeString(a.URL))
		buf.WriteString(`" integrity="`)
		buf.WriteString(html.EscapeString(a.Integrity))
		buf.WriteString("\" crossorigin=\"anonymous\">\n")
	}
	buf.WriteString(`</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
`)
	for _, a := range data.Scripts {
		buf.WriteString(`<script src="`)
		buf.WriteString(html.EscapeString(a.URL))
		buf.WriteString(`" integrity="`)
		buf.WriteString(html.EscapeString(a.Integrity))
		buf.WriteString("\" crossorigin=\"anonymous\"></script>\n")
	}
	buf.WriteString("<script>")
	buf.WriteString(data.Bootstrap)
	buf.WriteString("</script>\n</body>\n</html>\n")
}

// Page is the rendered GraphiQL page and the headers it must be served
// with; NewPage builds both. It is an http.Handler serving them to GET and
// HEAD requests.
type Page struct {
	// Body is the HTML document.
	Body []byte
	// Header holds Content-Type, Content-Length, X-Content-Type-Options:
	// nosniff, Cache-Control: no-cache and the Content-Security-Policy.
	// Treat it as read-only.
	Header http.Header
}

// NewPage renders the page for opts with its headers. The
// Content-Security-Policy allows scripts, styles, images and fonts only
// from the asset origin (the pinned CDN path, the AssetBaseURL, or 'self'
// for a path), the page's one inline script by its SHA-256 hash, requests
// only to the endpoint's origin, and framing only by
// Options.FrameAncestors ('none' by default). Inline styles stay allowed:
// GraphiQL's components apply inline styles at run time. NewPage fails
// only on an invalid AssetBaseURL.
func NewPage(opts Options) (*Page, error) {
	base, err := normalizeBase(opts.AssetBaseURL)
	if err != nil {
		return nil, err
	}
	endpoint := opts.Endpoint
	if endpoint == "" {
		endpoint = "/graphql"
	}
	title := opts.Title
	if title == "" {
		title = "GraphiQL"
	}
	data := pageData{Title: title, Bootstrap: bootstrapHead + scriptString(endpoint) + bootstrapTail, Style: inlineStyle}
	for _, a := range Assets {
		pa := pageAsset{URL: a.URL(base), Integrity: a.Integrity}
		if a.Kind == Stylesheet {
			data.Styles = append(data.Styles, pa)
		} else {
			data.Scripts = append(data.Scripts, pa)
		}
	}
	var buf bytes.Buffer
	renderPage(&buf, &data)
	h := http.Header{}
	h.Set("Content-Type", ContentType)
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Security-Policy", contentSecurityPolicy(base, endpoint, data.Bootstrap, opts.FrameAncestors))
	return &Page{Body: buf.Bytes(), Header: h}, nil
}

// Render returns the page's HTML for opts (NewPage's Body). Serve it with
// NewPage's headers: without its Content-Security-Policy the page is less
// protected.
func Render(opts Options) ([]byte, error) {
	p, err := NewPage(opts)
	if err != nil {
		return nil, err
	}
	return p.Body, nil
}

// contentSecurityPolicy builds the page's policy. base is the normalized
// asset base ("" for the CDN).
func contentSecurityPolicy(base, endpoint, bootstrap, frameAncestors string) string {
	assets := "'self'"
	switch {
	case base == "":
		assets = DefaultCDN + "/"
	case !strings.HasPrefix(base, "/"):
		assets = base + "/"
	}
	connect := "'self'"
	if u, err := url.Parse(endpoint); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		connect = u.Scheme + "://" + u.Host
	}
	if frameAncestors == "" {
		frameAncestors = "'none'"
	}
	sum := sha256.Sum256([]byte(bootstrap))
	return "default-src 'none'" +
		"; script-src " + assets + " 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'" +
		"; style-src " + assets + " 'unsafe-inline'" +
		"; img-src " + assets + " data:" +
		"; font-src " + assets + " data:" +
		"; connect-src " + connect +
		"; base-uri 'none'; form-action 'none'" +
		"; frame-ancestors " + frameAncestors
}

// scriptString encodes s as a JavaScript string literal that is safe inside
// an HTML script element: encoding/json escapes <, > and & (so "</script>"
// and "<!--" cannot appear) and U+2028 and U+2029, and quotes and
// backslashes cannot end the literal.
func scriptString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		// A Go string always marshals; invalid UTF-8 becomes U+FFFD.
		return `""`
	}
	return string(b)
}

// normalizeBase checks an asset base URL and trims its trailing slash.
func normalizeBase(raw string) (string, error) {
	if raw == "" {
		return "", nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("graphiql: asset base URL %q: %w", raw, err)
	}
	switch {
	case u.Scheme == "http" || u.Scheme == "https":
		if u.Host == "" {
			return "", fmt.Errorf("graphiql: asset base URL %q: no host", raw)
		}
	case u.Scheme == "" && u.Host == "" && strings.HasPrefix(u.Path, "/") && !strings.HasPrefix(raw, "//"):
	default:
		return "", fmt.Errorf("graphiql: asset base URL %q: want an http(s) URL or an absolute path", raw)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("graphiql: asset base URL %q: must not have a query or fragment", raw)
	}
	return strings.TrimRight(raw, "/"), nil
}

// ServeHTTP serves the page with its headers to GET and HEAD, and
// answers 405 to other methods.
func (p *Page) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	for k, v := range p.Header {
		h[k] = v
	}
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		_, _ = w.Write(p.Body)
	}
}

// Handler returns the page for opts as an http.Handler (see NewPage).
func Handler(opts Options) (http.Handler, error) {
	p, err := NewPage(opts)
	if err != nil {
		return nil, err
	}
	return p, nil
}
