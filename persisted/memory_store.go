package persisted

import (
	"context"
	"fmt"

	lru "github.com/hashicorp/golang-lru/v2"
)

// DefaultStoreSize is the number of queries the default memory store keeps.
const DefaultStoreSize = 1000

// MemoryStore is an in-process Store that keeps the most recently used
// queries: when full, setting a new entry evicts the one least recently set
// or read. It is safe for concurrent use.
type MemoryStore struct {
	cache *lru.Cache[string, string]
}

// NewMemoryStore returns a MemoryStore holding up to maxSize queries.
// maxSize must be positive.
func NewMemoryStore(maxSize int) (*MemoryStore, error) {
	if maxSize <= 0 {
		return nil, fmt.Errorf("persisted: memory store size must be positive, got %d", maxSize)
	}
	c, err := lru.New[string, string](maxSize)
	if err != nil {
		return nil, fmt.Errorf("persisted: memory store: %w", err)
	}
	return &MemoryStore{cache: c}, nil
}

// Get returns the query stored under hash and marks it recently used.
func (s *MemoryStore) Get(_ context.Context, hash string) (string, bool, error) {
	q, ok := s.cache.Get(hash)
	return q, ok, nil
}

// Set stores query under hash, evicting the least recently used entry when
// the store is full.
func (s *MemoryStore) Set(_ context.Context, hash, query string) error {
	s.cache.Add(hash, query)
	return nil
}

// Len returns the number of stored queries.
func (s *MemoryStore) Len() int { return s.cache.Len() }
