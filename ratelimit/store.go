package ratelimit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sync"
	"time"
)

// Store keeps what each key has spent in its current window. It is safe
// for concurrent use; package redislimit has one shared by instances.
type Store interface {
	// Spend adds cost to what key has spent in its current window,
	// starting a window of length window when none is running, unless
	// the spending would then pass budget: the cost is then not added and
	// the Usage says so. A negative cost gives points back (the spending
	// never goes below zero) and is never refused.
	Spend(ctx context.Context, key string, cost, budget int64, window time.Duration) (Usage, error)
}

// Usage is a key's spending after a call to Store.Spend.
type Usage struct {
	// Allowed is false when the cost was refused.
	Allowed bool
	// Spent is what the key has spent in the window, the cost included
	// when allowed.
	Spent int64
	// Reset is when the window ends and the spending starts again at
	// zero.
	Reset time.Time
}

// DefaultMaxKeys is the default of MemoryStore's key bound.
const DefaultMaxKeys = 100_000

// maxKeyBytes is the longest key a store keeps as it is; a longer one is
// kept as its SHA-256, so a key costs the store a bounded size whatever
// the client sends.
const maxKeyBytes = 64

// storedKey returns key, or its SHA-256 in hex when it is long.
func storedKey(key string) string {
	if len(key) <= maxKeyBytes {
		return key
	}
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// MemoryStore keeps the spending of each key in memory, for one instance.
// It holds at most its key bound of keys, each of at most 64 bytes (a
// longer key is kept as its hash): once that many windows are running,
// the keys it does not hold share one spending until the oldest windows
// end, so a client that invents keys cannot grow it.
type MemoryStore struct {
	mu       sync.Mutex
	maxKeys  int
	now      func() time.Time
	entries  map[string]*memEntry
	order    []memSlot // windows in the order they started: the order they end
	head     int
	overflow memEntry
}

type memEntry struct {
	spent int64
	reset time.Time
}

type memSlot struct {
	key   string
	reset time.Time
}

// NewMemoryStore returns a MemoryStore holding at most maxKeys keys;
// zero or less means DefaultMaxKeys.
func NewMemoryStore(maxKeys int) *MemoryStore {
	if maxKeys <= 0 {
		maxKeys = DefaultMaxKeys
	}
	return &MemoryStore{maxKeys: maxKeys, now: time.Now, entries: make(map[string]*memEntry)}
}

// Spend implements Store.
func (s *MemoryStore) Spend(_ context.Context, key string, cost, budget int64, window time.Duration) (Usage, error) {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire(now)
	e := s.entries[key]
	if e == nil {
		if len(key) > maxKeyBytes {
			key = storedKey(key)
			e = s.entries[key]
		}
	}
	if e != nil && !now.Before(e.reset) {
		// A window of another length than the others ended.
		e.spent, e.reset = 0, now.Add(window)
		s.order = append(s.order, memSlot{key: key, reset: e.reset})
	}
	if e == nil {
		if len(s.entries) >= s.maxKeys {
			e = &s.overflow
			if !now.Before(e.reset) {
				*e = memEntry{reset: now.Add(window)}
			}
		} else {
			key = string([]byte(key)) // kept: not the request's memory
			e = &memEntry{reset: now.Add(window)}
			s.entries[key] = e
			s.order = append(s.order, memSlot{key: key, reset: e.reset})
		}
	}
	return spend(e, cost, budget), nil
}

// spend applies cost to e within budget.
func spend(e *memEntry, cost, budget int64) Usage {
	if cost > 0 && cost > budget-e.spent {
		return Usage{Allowed: false, Spent: e.spent, Reset: e.reset}
	}
	e.spent = max(e.spent+cost, 0)
	return Usage{Allowed: true, Spent: e.spent, Reset: e.reset}
}

// expire forgets the windows that ended by now: the oldest first.
func (s *MemoryStore) expire(now time.Time) {
	for s.head < len(s.order) && !now.Before(s.order[s.head].reset) {
		slot := s.order[s.head]
		if e := s.entries[slot.key]; e != nil && e.reset.Equal(slot.reset) {
			delete(s.entries, slot.key)
		}
		s.order[s.head] = memSlot{}
		s.head++
	}
	if s.head > 1024 && s.head*2 > len(s.order) {
		s.order = append(s.order[:0], s.order[s.head:]...)
		s.head = 0
	}
}

// Len returns the number of keys whose window is running.
func (s *MemoryStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire(s.now())
	return len(s.entries)
}
