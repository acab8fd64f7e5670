package starwars

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// CharacterLoader batches the character lookups of one request, as
// gqlgen projects write loaders by hand or with dataloadgen: calls made
// within Wait of the first one share one fetch.
type CharacterLoader struct {
	// Wait is how long a batch stays open for more keys.
	Wait time.Duration
	// Fetches counts the batch fetches, Keys the keys fetched.
	Fetches, Keys atomic.Int64

	mu    sync.Mutex
	batch *loaderBatch
}

type loaderBatch struct {
	keys []string
	out  []Character
	done chan struct{}
}

// LoadAll returns the characters of ids, in order (nil for an unknown
// id), fetched in a batch with the other calls made meanwhile.
func (l *CharacterLoader) LoadAll(ctx context.Context, ids []string) ([]Character, error) {
	l.mu.Lock()
	b := l.batch
	if b == nil {
		b = &loaderBatch{done: make(chan struct{})}
		l.batch = b
		time.AfterFunc(l.Wait, func() { l.fetch(b) })
	}
	first := len(b.keys)
	b.keys = append(b.keys, ids...)
	l.mu.Unlock()
	select {
	case <-b.done:
		return b.out[first : first+len(ids)], nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// fetch closes the batch b and looks its keys up at once.
func (l *CharacterLoader) fetch(b *loaderBatch) {
	l.mu.Lock()
	if l.batch == b {
		l.batch = nil
	}
	l.mu.Unlock()
	l.Fetches.Add(1)
	l.Keys.Add(int64(len(b.keys)))
	b.out = make([]Character, len(b.keys))
	for i, id := range b.keys {
		b.out[i] = character(id)
	}
	close(b.done)
}

type loaderKey struct{}

// Loaders is the HTTP middleware giving each request its own
// CharacterLoader, as gqlgen projects install their dataloaders; report,
// when not nil, receives each request's loader once the request is
// served.
func Loaders(next http.Handler, report func(*CharacterLoader)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l := &CharacterLoader{Wait: time.Millisecond}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), loaderKey{}, l)))
		if report != nil {
			report(l)
		}
	})
}

// friendsOf returns the characters of ids through the request's loader,
// or directly when the request has none.
func friendsOf(ctx context.Context, ids []string) ([]Character, error) {
	if l, ok := ctx.Value(loaderKey{}).(*CharacterLoader); ok {
		return l.LoadAll(ctx, ids)
	}
	return friends(ids), nil
}
