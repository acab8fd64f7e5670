package graphiql

import (
	"bytes"
	"html"
	"testing"
	"text/template"
)

// refBootstrap and refPage are the text/template versions of the page the
// package rendered before it put the page together by concatenation (a
// binary linking text/template keeps every exported method of its types);
// TestPageMatchesTemplate holds the rendering to them byte for byte.
var refBootstrap = template.Must(template.New("bootstrap").Parse(`
(function () {
  var container = document.getElementById("graphiql");
  if (typeof GraphiQL === "undefined" || typeof React === "undefined" || typeof ReactDOM === "undefined") {
    container.textContent = "GraphiQL could not be loaded: its scripts were blocked, unreachable or did not match their integrity hashes.";
    return;
  }
  var endpoint = {{.Endpoint}};
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
`))

var refPage = template.Must(template.New("graphiql").Funcs(template.FuncMap{"html": html.EscapeString}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{{html .Title}}</title>
<style>{{.Style}}</style>
{{range .Styles}}<link rel="stylesheet" href="{{html .URL}}" integrity="{{html .Integrity}}" crossorigin="anonymous">
{{end}}</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
{{range .Scripts}}<script src="{{html .URL}}" integrity="{{html .Integrity}}" crossorigin="anonymous"></script>
{{end}}<script>{{.Bootstrap}}</script>
</body>
</html>
`))

// refRender renders opts with refBootstrap and refPage.
func refRender(t *testing.T, opts Options) []byte {
	t.Helper()
	base, err := normalizeBase(opts.AssetBaseURL)
	if err != nil {
		t.Fatal(err)
	}
	endpoint, title := opts.Endpoint, opts.Title
	if endpoint == "" {
		endpoint = "/graphql"
	}
	if title == "" {
		title = "GraphiQL"
	}
	var boot bytes.Buffer
	if err := refBootstrap.Execute(&boot, struct{ Endpoint string }{scriptString(endpoint)}); err != nil {
		t.Fatal(err)
	}
	data := pageData{Title: title, Bootstrap: boot.String(), Style: inlineStyle}
	for _, a := range Assets {
		pa := pageAsset{URL: a.URL(base), Integrity: a.Integrity}
		if a.Kind == Stylesheet {
			data.Styles = append(data.Styles, pa)
		} else {
			data.Scripts = append(data.Scripts, pa)
		}
	}
	var buf bytes.Buffer
	if err := refPage.Execute(&buf, data); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestPageMatchesTemplate(t *testing.T) {
	for _, opts := range []Options{
		{},
		{Endpoint: "https://api.example.com/graphql?x=1&y=\"2\"", Title: "<My & API>"},
		{Endpoint: "</script><script>alert(1)</script>", AssetBaseURL: "/static/npm", Title: "a\"b'c"},
		{AssetBaseURL: "https://cdn.example.com/npm/", FrameAncestors: "'self'", Title: "\u2028 ünïcode"},
		{Endpoint: EmbeddedBase("/graphql"), AssetBaseURL: EmbeddedBase("/graphql")},
	} {
		p, err := NewPage(opts)
		if err != nil {
			t.Fatalf("%+v: %v", opts, err)
		}
		if want := refRender(t, opts); !bytes.Equal(p.Body, want) {
			t.Errorf("%+v: page differs from the template's rendering\ngot:\n%s\nwant:\n%s", opts, p.Body, want)
		}
	}
}
