// Package relay implements the GraphQL Cursor Connections and Global
// Object Identification specifications that Relay (and most GraphQL
// clients) build on, on top of package schema.
//
// # Connections
//
// NewConnection declares the connection type of a node type once:
// <Node>Connection { edges, pageInfo, totalCount }, <Node>Edge { cursor,
// node } and PageInfo. A field returning a page takes PageArgs (first,
// after, last, before; embed it in a larger argument struct for more
// arguments) and returns a Connection[T], built by one of the helpers:
//
//	books := relay.NewConnection[Book](b, "Book", relay.Config{TotalCount: true})
//	schema.Query(b, "books", func(ctx context.Context, args relay.PageArgs) (relay.Connection[Book], error) {
//		return books.Slice(args, allBooks, "")
//	}, books.Cost())
//
// Slice pages through a slice in memory; Keyset pages through rows
// ordered by a unique key with one query of the form WHERE key > ? ORDER
// BY key LIMIT n+1, the extra row telling whether there is a next page.
// The arguments are checked as the specification says, before anything
// is fetched: a negative count, first and last together, a count above
// Config.MaxPageSize, or a cursor that this connection did not issue are
// errors with extensions.code BAD_USER_INPUT; without first and last the
// page holds Config.DefaultPageSize items, unless Config.RequirePageSize
// refuses such requests, as GitHub's API does.
//
// Cursors are opaque: base64url text holding a format version, a hash of
// the connection they belong to (its type and the scope the resolver
// names, such as the id of the author whose books are paged) and the
// position or key (a key of at most 512 bytes). A cursor of another
// connection, of another version, or that does not decode as it was
// written is refused. Cursors are not signed: a client that forges one
// may start a page anywhere it could reach by paging.
//
// The Cost option of a connection field makes the complexity analysis
// (package limits) count what is selected under edges and nodes once per
// item of the page and pageInfo and totalCount once (schema.PageCost).
//
// # Global object identification
//
// NewNodes declares the Node interface and the node(id:) and nodes(ids:)
// root fields; Register adds an object type to it with a function that
// fetches many objects by key in one call. The type's id field becomes
// its global ID: the type name and key, base64url-encoded (up to 1024
// bytes in all). node and
// nodes look objects up through per-request loaders (package loader), so
// every id of one type in a request — several node fields, the ids of
// nodes — is fetched in one call of that type's fetch function.
//
// An id that does not decode, names a type that is not registered, or
// whose object does not exist is null, without an error: clients ask for
// ids they were given, and a deleted object is an ordinary null. A
// resolver that takes the global id of a given type decodes it with
// ParseID and refuses an id of another type itself (as a
// BAD_USER_INPUT).
package relay
