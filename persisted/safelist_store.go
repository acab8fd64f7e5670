package persisted

import (
	"context"
	"fmt"
	"maps"
	"sort"
)

// SafelistStore is a read-only Store of the operations a safelist allows.
// Set always fails with ErrReadOnly.
type SafelistStore struct {
	entries   map[string]string
	algorithm string // the algorithm whose length every key has; "" when empty
}

// NewSafelistStore returns a SafelistStore of the given hash → query
// entries. Every key must be hex (either case) of a sha256 or sha512 hash,
// all of one length; keys are stored in lowercase. The queries are not
// checked against their keys here: LoadManifest verifies a manifest's ids.
func NewSafelistStore(entries map[string]string) (*SafelistStore, error) {
	s := &SafelistStore{entries: make(map[string]string, len(entries))}
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		lk, alg, ok := ParseDocumentID(k)
		if !ok {
			return nil, fmt.Errorf("persisted: safelist: key %q is not a sha256 or sha512 hex hash (optionally prefixed sha256: or sha512:) or a prefixed custom document id (prefix:id)", k)
		}
		if alg != "" {
			if s.algorithm == "" {
				s.algorithm = alg
			} else if alg != s.algorithm {
				return nil, fmt.Errorf("persisted: safelist: key %q is a %s hash but other keys are %s hashes", k, alg, s.algorithm)
			}
		}
		if prev, dup := s.entries[lk]; dup && prev != entries[k] {
			return nil, fmt.Errorf("persisted: safelist: key %q appears twice (in different case or prefixed) with different queries", lk)
		}
		s.entries[lk] = entries[k]
	}
	return s, nil
}

// Get returns the allowed query with the given hash.
func (s *SafelistStore) Get(_ context.Context, hash string) (string, bool, error) {
	q, ok := s.entries[hash]
	return q, ok, nil
}

// Set returns ErrReadOnly: a safelist changes only by building a new one.
func (s *SafelistStore) Set(context.Context, string, string) error { return ErrReadOnly }

// Entries returns a copy of every allowed hash and its query.
func (s *SafelistStore) Entries() map[string]string { return maps.Clone(s.entries) }

// Algorithm returns the hash algorithm the keys were made with, judged by
// their length ("sha256" or "sha512"), or "" for an empty list.
func (s *SafelistStore) Algorithm() string { return s.algorithm }

// Len returns the number of allowed queries.
func (s *SafelistStore) Len() int { return len(s.entries) }
