package graphiql

// The exact npm package versions the page loads. GraphiQL 4 still ships a
// self-contained UMD bundle (editor with syntax highlighting, autocomplete
// from introspection, query history and the documentation explorer), and
// React 18 is the last React with UMD builds, so no bundler is needed.
const (
	// GraphiQLVersion is the pinned version of the npm package graphiql.
	GraphiQLVersion = "4.1.2"
	// ReactVersion is the pinned version of the npm packages react and
	// react-dom.
	ReactVersion = "18.3.1"
)

// DefaultCDN is the base URL assets are loaded from when
// Options.AssetBaseURL is empty. Files are addressed as
// DefaultCDN + "/" + Package + "@" + Version + "/" + File.
const DefaultCDN = "https://cdn.jsdelivr.net/npm"

// AssetKind says how the page includes an asset.
type AssetKind int

const (
	// Script is included with a <script> element.
	Script AssetKind = iota
	// Stylesheet is included with a <link rel="stylesheet"> element.
	Stylesheet
)

// Asset is one file of an npm package that the page loads.
type Asset struct {
	Package string // npm package name, e.g. "react-dom"
	Version string // exact package version
	File    string // path inside the package, e.g. "umd/react-dom.production.min.js"
	Kind    AssetKind
	// Integrity is the Subresource Integrity value (sha384, base64) of the
	// file exactly as published in the npm package.
	Integrity string
}

// Assets lists, in load order, every file the page includes. A self-hosted
// copy must serve each as AssetBaseURL + "/" + Package + "/" + File, the
// layout of a node_modules directory, so copying the packages' files (or
// serving node_modules after `npm ci`) is enough. The integrity values are
// checked against the npm packages by the e2e tests.
var Assets = []Asset{
	{
		Package:   "graphiql",
		Version:   GraphiQLVersion,
		File:      "graphiql.min.css",
		Kind:      Stylesheet,
		Integrity: "sha384-1el1QShFBnnXTx9x/Cprg82hZWKt0ry29OAYIXt05swbi0KcZDFoj0CWguMpopJr",
	},
	{
		Package:   "react",
		Version:   ReactVersion,
		File:      "umd/react.production.min.js",
		Kind:      Script,
		Integrity: "sha384-DGyLxAyjq0f9SPpVevD6IgztCFlnMF6oW/XQGmfe+IsZ8TqEiDrcHkMLKI6fiB/Z",
	},
	{
		Package:   "react-dom",
		Version:   ReactVersion,
		File:      "umd/react-dom.production.min.js",
		Kind:      Script,
		Integrity: "sha384-gTGxhz21lVGYNMcdJOyq01Edg0jhn/c22nsx0kyqP0TxaV5WVdsSH1fSDUf5YJj1",
	},
	{
		Package:   "graphiql",
		Version:   GraphiQLVersion,
		File:      "graphiql.min.js",
		Kind:      Script,
		Integrity: "sha384-9XdHu7ajgGJziD4J1zNBKQ842Q/+zZfDv+ib1eMhZWBH6hPAs806x+Jbcf0yNO6B",
	},
}

// URL returns where the page loads the asset from: the pinned CDN path
// when base is empty, else base + "/" + Package + "/" + File.
func (a Asset) URL(base string) string {
	if base == "" {
		return DefaultCDN + "/" + a.Package + "@" + a.Version + "/" + a.File
	}
	return base + "/" + a.Package + "/" + a.File
}
