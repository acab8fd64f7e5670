// Package persisted implements persisted queries for graft: Apollo's automatic
// persisted queries (APQ), where clients send the hash of a query and the
// server remembers the text, and safelisting, where only the operations in a
// known list may run at all.
//
// Turn them on with graft.Config.PersistedQueries (an [Options]), or from the
// environment with [ConfigFromEnv]. The router resolves every request's
// extensions.persistedQuery before it parses anything, and registers a new
// query only once it has parsed and validated, so an invalid query is never
// stored. Each refusal has a stable extensions.code (graft's
// CodePersistedQueryNotFound and the rest).
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
//	router, err := graft.NewRouter(s, layer, graft.Config{
//		PersistedQueries: &persisted.Options{Mode: persisted.APQ, Store: store},
//	})
package persisted
