package persisted

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"

	"github.com/graftgql/graft/internal/costlru"
	"github.com/graftgql/graft/internal/pqattach"
)

// Bounds of the default memory store.
const (
	// DefaultStoreSize is the number of queries the default memory store
	// keeps.
	DefaultStoreSize = 1000
	// DefaultStoreBytes is the total size of the queries (and their
	// hashes) the default memory store keeps: 16 MiB.
	DefaultStoreBytes = 16 << 20
)

// entryOverhead is the bookkeeping counted for each stored entry beside
// its hash and query: the list element, map slot, entry and string
// headers.
const entryOverhead = 160

// evictionLogEvery is how often, in evictions, the memory store logs that
// it is full: at the first eviction and then every this many.
const evictionLogEvery = 1000

// MemoryStore is an in-process Store that keeps the most recently used
// queries within a number of entries and a number of bytes: when either
// bound would be crossed, setting a new entry evicts the ones least
// recently set or read, and a single query larger than an eighth of the
// byte budget is not stored at all. It is safe for concurrent use.
//
// Any client can register queries, so a client that registers many can
// evict the queries of others: they then pay one more round trip to
// register theirs again. Stats and the log line written when the store
// starts evicting make this visible.
type MemoryStore struct {
	// cache holds each query with the slot of what a router attached to
	// it (see internal/pqattach).
	cache  *pqattach.Cache
	logger atomic.Pointer[slog.Logger]
}

func init() {
	pqattach.CacheOf = func(store any) *pqattach.Cache {
		if s, ok := store.(*MemoryStore); ok {
			return s.cache
		}
		return nil
	}
}

// StoreStats is a snapshot of a MemoryStore's size and counters, for logs
// and metrics.
type StoreStats struct {
	// Entries and Bytes are what the store holds now.
	Entries int
	Bytes   int64
	// MaxEntries and MaxBytes are its bounds.
	MaxEntries int
	MaxBytes   int64
	// Evictions counts queries removed to make room for newer ones.
	Evictions uint64
	// Refused counts queries not stored because they alone were too large.
	Refused uint64
}

// NewMemoryStore returns a MemoryStore holding up to maxSize queries and
// DefaultStoreBytes bytes. maxSize must be positive.
func NewMemoryStore(maxSize int) (*MemoryStore, error) {
	return NewMemoryStoreBytes(maxSize, DefaultStoreBytes)
}

// NewMemoryStoreBytes returns a MemoryStore holding up to maxSize queries
// whose sizes add up to at most maxBytes. Both must be positive.
func NewMemoryStoreBytes(maxSize int, maxBytes int64) (*MemoryStore, error) {
	if maxSize <= 0 {
		return nil, fmt.Errorf("persisted: memory store size must be positive, got %d", maxSize)
	}
	if maxBytes <= 0 {
		return nil, fmt.Errorf("persisted: memory store bytes must be positive, got %d", maxBytes)
	}
	s := &MemoryStore{}
	c, err := costlru.New[string, *pqattach.Entry](maxSize, maxBytes, max(maxBytes/8, 1), s.evicted, nil)
	if err != nil {
		return nil, fmt.Errorf("persisted: memory store: %w", err)
	}
	s.cache = c
	return s, nil
}

// Get returns the query stored under hash and marks it recently used.
func (s *MemoryStore) Get(_ context.Context, hash string) (string, bool, error) {
	e, ok := s.cache.Get(hash)
	if !ok {
		return "", false, nil
	}
	return e.Query, true, nil
}

// Set stores query under hash, evicting the least recently used entries
// when the store is full. A query too large for the store is not stored,
// and Set still returns nil: the store is a cache.
func (s *MemoryStore) Set(_ context.Context, hash, query string) error {
	s.cache.Add(hash, &pqattach.Entry{Query: query}, int64(len(hash)+len(query)+entryOverhead))
	return nil
}

// Len returns the number of stored queries.
func (s *MemoryStore) Len() int { return s.cache.Len() }

// Stats returns the store's size, bounds and counters.
func (s *MemoryStore) Stats() StoreStats {
	st := s.cache.Stats()
	return StoreStats{Entries: st.Entries, Bytes: st.Cost, MaxEntries: st.MaxEntries, MaxBytes: st.MaxCost,
		Evictions: st.Evictions, Refused: st.Refused}
}

// SetLogger sets where the store logs that it is full and evicting (at
// the first eviction and every 1,000 after); slog.Default() when never
// set. A router with persisted queries sets its own logger.
func (s *MemoryStore) SetLogger(l *slog.Logger) { s.logger.Store(l) }

// evicted logs, at the first eviction and every evictionLogEvery after,
// that the store is full.
func (s *MemoryStore) evicted(before, after uint64) {
	if before != 0 && before/evictionLogEvery == after/evictionLogEvery {
		return
	}
	l := s.logger.Load()
	if l == nil {
		l = slog.Default()
	}
	st := s.Stats()
	l.Info("persisted: the APQ memory store is full and evicts the least recently used queries",
		slog.Int("entries", st.Entries), slog.Int64("bytes", st.Bytes),
		slog.Int("maxEntries", st.MaxEntries), slog.Int64("maxBytes", st.MaxBytes),
		slog.Uint64("evictions", st.Evictions))
}
