package pqstate

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"sync"

	"github.com/graftgql/graft/persisted"
)

const (
	qHero   = "{ hero { name } }"
	qDroid  = "query Droid { droid(id: 1) { name } }"
	qUnlist = "{ secret }"
)

var (
	hHero     = persisted.Hash(persisted.SHA256, qHero)
	hDroid    = persisted.Hash(persisted.SHA256, qDroid)
	hUnlist   = persisted.Hash(persisted.SHA256, qUnlist)
	hHero512  = persisted.Hash(persisted.SHA512, qHero)
	hDroid512 = persisted.Hash(persisted.SHA512, qDroid)
)

// failingStore fails every call with err, counting the calls.
type failingStore struct {
	err  error
	mu   sync.Mutex
	gets int
	sets int
}

var errStoreDown = errors.New("connection refused")

func (s *failingStore) Get(context.Context, string) (string, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gets++
	return "", false, s.err
}

func (s *failingStore) Set(context.Context, string, string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sets++
	return s.err
}

// logBuffer is a concurrency-safe buffer for a text slog handler.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func newTestLogger() (*slog.Logger, *logBuffer) {
	b := &logBuffer{}
	return slog.New(slog.NewTextHandler(b, nil)), b
}

// pqExt builds extensions with a persistedQuery of version 1 and the hash
// under key.
func pqExt(key, hash string) map[string]any {
	return map[string]any{"persistedQuery": map[string]any{"version": float64(1), key: hash}}
}
