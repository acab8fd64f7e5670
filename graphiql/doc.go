// Package graphiql renders the GraphiQL page that graft serves next to a
// GraphQL endpoint: an in-browser IDE with syntax highlighting,
// autocomplete from introspection, query history and the documentation
// explorer.
//
// The page loads exact, pinned versions of GraphiQL, React and ReactDOM
// (see Assets) from a public CDN, each with a Subresource Integrity hash,
// or from Options.AssetBaseURL for networks that cannot reach the CDN. The
// same files are built into the package (EmbeddedFile, held to their
// integrity hashes by a test): a server that serves them under
// EmbeddedBase and points AssetBaseURL there needs no network at all
// (graft's GraphiQLConfig.Assets "embedded" does this). The
// endpoint is embedded as an escaped JSON string, so no value can end the
// script element or inject markup.
//
// The page is served with X-Content-Type-Options: nosniff, Cache-Control:
// no-cache and a Content-Security-Policy that allows only the asset origin,
// the page's inline script by its hash, requests to the endpoint's origin,
// and no framing (see NewPage). Build the page and its headers once at
// start-up and serve them:
//
//	page, err := graphiql.NewPage(graphiql.Options{Endpoint: "/graphql"})
//	if err != nil {
//		return err
//	}
//	mux.Handle("GET /graphiql", page)
//
// Handler does the same and returns an http.Handler.
package graphiql
