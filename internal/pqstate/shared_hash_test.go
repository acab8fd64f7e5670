package pqstate

import (
	"context"
	"errors"
	"sync"
	"testing"
	"unsafe"

	"github.com/graftgql/graft/internal/pqattach"
	"github.com/graftgql/graft/persisted"
)

// keepingStore is a store that keeps every hash it is given, as a store
// with a local cache does.
type keepingStore struct {
	mu      sync.Mutex
	queries map[string]string
	gets    []string
}

func (s *keepingStore) Get(_ context.Context, hash string) (string, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gets = append(s.gets, hash)
	q, ok := s.queries[hash]
	return q, ok, nil
}

func (s *keepingStore) Set(_ context.Context, hash, query string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queries[hash] = query
	return nil
}

// TestHashSharingTheRequestIsCopiedWhereKept sends hashes that share a
// buffer, as the decoder gives them (they point into the request body),
// then overwrites the buffer: what the store and the errors kept must be
// unchanged.
func TestHashSharingTheRequestIsCopiedWhereKept(t *testing.T) {
	ctx := context.Background()
	shared := func(s string) (string, []byte) {
		b := []byte(s)
		return unsafe.String(&b[0], len(b)), b
	}
	scribble := func(b []byte) {
		for i := range b {
			b[i] = 'f'
		}
	}
	store := &keepingStore{queries: map[string]string{}}
	p, err := New(persisted.Options{Store: store})
	if err != nil {
		t.Fatal(err)
	}

	// A miss: the store was given the hash, the error names it.
	h, buf := shared(hHero)
	_, err = p.ResolveExtension(ctx, false, "", Extension{Version: 1, SHA256Hash: h})
	var pe *Error
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want a persisted-query error", err)
	}
	var nf *PersistedQueryNotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("err = %#v, want a PersistedQueryNotFoundError", err)
	}
	scribble(buf)
	if store.gets[0] != hHero || nf.Hash != hHero {
		t.Fatalf("kept %q and %q after the request's memory changed, want %q", store.gets[0], nf.Hash, hHero)
	}

	// A registration: Register stores a copy of the hash.
	h, buf = shared(hHero)
	res, err := p.ResolveExtension(ctx, false, qHero, Extension{Version: 1, SHA256Hash: h})
	if err != nil || !res.Register {
		t.Fatalf("res = %+v, err = %v, want a registration", res, err)
	}
	p.Register(ctx, "", res.Hash, qHero)
	scribble(buf)
	if q, ok := store.queries[hHero]; !ok || q != qHero {
		t.Fatalf("store holds %v after the request's memory changed, want %s under %s", store.queries, qHero, hHero)
	}

	// A mismatch: the error keeps the hash as sent.
	h, buf = shared(hDroid)
	_, err = p.ResolveExtension(ctx, false, qHero, Extension{Version: 1, SHA256Hash: h})
	var mm *PersistedQueryHashMismatchError
	if !errors.As(err, &mm) {
		t.Fatalf("err = %v, want a hash mismatch", err)
	}
	scribble(buf)
	if mm.ProvidedHash != hDroid {
		t.Fatalf("mismatch kept %q, want %q", mm.ProvidedHash, hDroid)
	}
}

func TestResolveGivesTheMemoryStoresSlot(t *testing.T) {
	ctx := context.Background()
	mem, _ := persisted.NewMemoryStore(10)
	_ = mem.Set(ctx, hHero, qHero)
	p, err := New(persisted.Options{Store: mem})
	if err != nil {
		t.Fatal(err)
	}
	hit := func() Resolution {
		t.Helper()
		res, err := p.ResolveExtension(ctx, false, "", Extension{Version: 1, SHA256Hash: hHero})
		if err != nil || res.Query != qHero {
			t.Fatalf("res = %+v, err = %v", res, err)
		}
		return res
	}
	first := hit()
	if first.Slot == nil || hit().Slot != first.Slot {
		t.Fatalf("slots %p and %p, want the entry's one slot both times", first.Slot, hit().Slot)
	}
	// Registered again: a new entry, a new (empty) slot.
	first.Slot.Store(&pqattach.Attachment{Owner: t, Value: 1})
	_ = mem.Set(ctx, hHero, qHero)
	if again := hit(); again.Slot == first.Slot || again.Slot.Load() != nil {
		t.Fatalf("after the entry was replaced: slot %p holding %v, want a new empty one", again.Slot, again.Slot.Load())
	}
	// A miss, and a plain query: no slot.
	if res, _ := p.ResolveExtension(ctx, false, qDroid, Extension{Version: 1, SHA256Hash: hDroid}); res.Slot != nil || !res.Register {
		t.Fatalf("registration: %+v, want no slot", res)
	}
	// Any other store: no slot.
	other, err := New(persisted.Options{Store: &keepingStore{queries: map[string]string{hHero: qHero}}})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := other.ResolveExtension(ctx, false, "", Extension{Version: 1, SHA256Hash: hHero}); err != nil || res.Query != qHero || res.Slot != nil {
		t.Fatalf("another store: %+v, %v, want the query and no slot", res, err)
	}
}
