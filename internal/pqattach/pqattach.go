// Package pqattach lets a router attach what it derives from a persisted
// query (its prepared document) to the query's entry in an in-process
// store, so that a hash-only request finds the query and its document in
// one lookup rather than two. The entry and its attachment are replaced
// together, so an attachment always belongs to the query beside it.
// Package persisted installs CacheOf for its memory store.
package pqattach

import (
	"sync/atomic"

	"github.com/graftgql/graft/internal/costlru"
)

// Entry is a query kept under a key (its hash in the memory store, its
// escaped form in a router's query texts) and the slot of what a router
// derived from it.
type Entry struct {
	Query string
	Slot  Slot
}

// Cache is a bounded cache of entries by key.
type Cache = costlru.Cache[string, *Entry]

// Slot is where an entry keeps its attachment. The zero value is empty.
type Slot struct {
	p atomic.Pointer[Attachment]
}

// Attachment is what one owner (a router) attached to an entry.
type Attachment struct {
	// Owner identifies who attached Value: owners only read their own.
	Owner any
	Value any
}

// Load returns the attachment, or nil.
func (s *Slot) Load() *Attachment { return s.p.Load() }

// Store replaces the attachment.
func (s *Slot) Store(a *Attachment) { s.p.Store(a) }

// CacheOf returns the entries of store when it is a
// *persisted.MemoryStore, and nil for any other store: the caller then
// asks the store itself. Reading the cache directly saves a hash-only
// request the calls between it and the store. Like the store's own Get,
// the cache keeps nothing of the keys it is asked for. Package persisted
// sets it when it is initialised.
var CacheOf func(store any) *Cache
