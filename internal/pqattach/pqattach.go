// Package pqattach lets a router attach what it derives from a persisted
// query (its prepared document) to the query's entry in an in-process
// store, so that a hash-only request finds the query and its document in
// one lookup rather than two. The entry and its attachment are replaced
// together, so an attachment always belongs to the query beside it.
// Package persisted installs Get for its memory store.
package pqattach

import "sync/atomic"

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

// Get returns the query stored under hash in store and the slot of its
// entry. handled is false when store keeps no slots (it is not a
// *persisted.MemoryStore): the caller then asks the store itself. Like
// the store's own Get, it keeps nothing of hash. Package persisted sets
// it when it is initialised.
var Get func(store any, hash string) (query string, slot *Slot, found, handled bool)
