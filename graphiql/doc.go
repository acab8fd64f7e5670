// Package graphiql renders the GraphiQL page that graft serves next to a
// GraphQL endpoint: an in-browser IDE with syntax highlighting,
// autocomplete from introspection, query history and the documentation
// explorer.
//
// The page loads exact, pinned versions of GraphiQL, React and ReactDOM
// (see Assets) from a public CDN, each with a Subresource Integrity hash,
// or from Options.AssetBaseURL for networks that cannot reach the CDN. The
// endpoint is embedded as an escaped JSON string, so no value can end the
// script element or inject markup.
//
// Render the page once at start-up and serve the bytes:
//
//	page, err := graphiql.Render(graphiql.Options{Endpoint: "/graphql"})
//	if err != nil {
//		return err
//	}
//	mux.Handle("GET /graphiql", graphiql.Page(page))
//
// or use Handler, which does both.
package graphiql
