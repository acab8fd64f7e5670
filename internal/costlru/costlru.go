// Package costlru is a least-recently-used cache bounded both by entries
// and by a total cost, usually bytes. It wraps hashicorp/golang-lru's
// simplelru with the cost accounting that package does not have: graft's
// document cache and in-memory APQ store use it so that a few large
// entries cannot hold more memory than the budget.
package costlru

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// Stats is a snapshot of a cache's size and of what it turned away.
type Stats struct {
	// Entries and Cost are what the cache holds now.
	Entries int
	Cost    int64
	// MaxEntries, MaxCost and MaxEntryCost are the bounds.
	MaxEntries   int
	MaxCost      int64
	MaxEntryCost int64
	// Evictions counts entries removed to make room for newer ones.
	Evictions uint64
	// Refused counts entries not stored because their cost alone was over
	// MaxEntryCost.
	Refused uint64
}

type entry[V any] struct {
	value V
	cost  int64
}

// Cache is safe for concurrent use.
type Cache[K comparable, V any] struct {
	mu       sync.Mutex
	lru      *simplelru.LRU[K, entry[V]]
	cost     int64
	maxCost  int64
	maxEntry int64
	maxCount int
	onEvict  func(before, after uint64)
	onRemove func(V)

	evictions atomic.Uint64
	refused   atomic.Uint64
	evicting  bool // set while Add makes room, to count evictions only
}

// New returns a cache of at most maxEntries entries whose costs add up to
// at most maxCost, refusing any single entry that costs more than
// maxEntryCost. All three must be positive. onEvict, when not nil, is
// called (outside the lock) after each Add that evicted entries, with the
// total number of evictions before and after it. onRemove, when not nil,
// is called with each value that leaves the cache, evicted or replaced
// under its key, while the cache is locked: it must be quick and must not
// use the cache.
func New[K comparable, V any](maxEntries int, maxCost, maxEntryCost int64, onEvict func(before, after uint64), onRemove func(V)) (*Cache[K, V], error) {
	c := &Cache[K, V]{maxCost: maxCost, maxEntry: min(maxEntryCost, maxCost), maxCount: maxEntries, onEvict: onEvict, onRemove: onRemove}
	if maxCost <= 0 || maxEntryCost <= 0 {
		return nil, fmt.Errorf("costlru: maxCost and maxEntryCost must be positive, got %d and %d", maxCost, maxEntryCost)
	}
	l, err := simplelru.NewLRU(maxEntries, func(_ K, e entry[V]) {
		c.cost -= e.cost
		if c.evicting {
			c.evictions.Add(1)
		}
		if c.onRemove != nil {
			c.onRemove(e.value)
		}
	})
	if err != nil {
		return nil, err
	}
	c.lru = l
	return c, nil
}

// Get returns the value under key and marks it recently used.
func (c *Cache[K, V]) Get(key K) (V, bool) {
	c.mu.Lock()
	e, ok := c.lru.Get(key)
	c.mu.Unlock()
	return e.value, ok
}

// Add stores value under key with the given cost, evicting the least
// recently used entries until both bounds hold. It reports false, storing
// nothing, when cost alone is over the per-entry bound.
func (c *Cache[K, V]) Add(key K, value V, cost int64) bool {
	if cost > c.maxEntry {
		c.refused.Add(1)
		return false
	}
	c.mu.Lock()
	before := c.evictions.Load()
	c.lru.Remove(key)
	c.evicting = true
	c.lru.Add(key, entry[V]{value: value, cost: cost})
	c.cost += cost
	for c.cost > c.maxCost {
		if _, _, ok := c.lru.RemoveOldest(); !ok {
			break
		}
	}
	c.evicting = false
	after := c.evictions.Load()
	c.mu.Unlock()
	if after != before && c.onEvict != nil {
		c.onEvict(before, after)
	}
	return true
}

// Len returns the number of entries.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}

// Stats returns the cache's size, bounds and counters.
func (c *Cache[K, V]) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return Stats{
		Entries:      c.lru.Len(),
		Cost:         c.cost,
		MaxEntries:   c.maxCount,
		MaxCost:      c.maxCost,
		MaxEntryCost: c.maxEntry,
		Evictions:    c.evictions.Load(),
		Refused:      c.refused.Load(),
	}
}

// Peek returns the value under key without marking it recently used.
func (c *Cache[K, V]) Peek(key K) (V, bool) {
	c.mu.Lock()
	e, ok := c.lru.Peek(key)
	c.mu.Unlock()
	return e.value, ok
}

// Contains reports whether key is cached, without marking it recently used.
func (c *Cache[K, V]) Contains(key K) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Contains(key)
}
