// Package persisted implements persisted queries for graft: Apollo's automatic
// persisted queries (APQ), where clients send the hash of a query and the
// server remembers the text, and safelisting, where only the operations in a
// known list may run at all.
//
// A router with persisted queries calls [PersistedQueries.Resolve] on every
// request before it parses anything. Resolve turns the request's query and
// its extensions.persistedQuery into the query text to run, or into an
// [*Error] carrying the HTTP status, headers and GraphQL error of the wire
// contract. When Resolve asks for it ([Resolution.Register]), the router
// stores the query with [PersistedQueries.Register] once the query has parsed,
// validated and passed the limits, so an invalid or refused query is never
// stored; nor is one over [Options.MaxQueryBytes].
//
// Queries live in a [Store]: [NewMemoryStore] is an in-process LRU bounded
// by entries and bytes ([NewMemoryStoreBytes]),
// [NewSafelistStore] a read-only list (usually loaded with [LoadManifest]),
// and package redisstore shares one store between server instances.
//
//	store, err := persisted.NewMemoryStore(1000)
//	if err != nil {
//		return err
//	}
//	p, err := persisted.New(persisted.Options{Mode: persisted.APQ, Store: store})
//	if err != nil {
//		return err
//	}
//	res, err := p.Resolve(ctx, false, body.Query, body.Extensions)
package persisted
