package loader

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"
)

// Shared deduplicates fetches across requests: while a key is being
// fetched, every other request that fetches the same key (in the same
// scope) waits for that fetch instead of making its own. It keeps no
// result once a fetch returns: the next fetch of the key calls upstream
// again. Use it for idempotent fetches only (reads), the way Apollo
// Router deduplicates identical in-flight subgraph requests.
//
// Create one Shared per upstream resource for the whole process, and give
// each request's Loader its Fetch:
//
//	users := loader.NewShared(fetchUsers, loader.SharedOptions{Scope: byAuthorization})
//	graft.ProvideRequest(layer, func(ctx context.Context) (*loader.Loader[string, User], error) {
//		return loader.New(users.Fetch), nil
//	})
//
// # Scope: what else the fetch depends on
//
// A fetch that depends on more than its keys (the caller's authorization
// header, tenant or locale) must say so in SharedOptions.Scope: only
// fetches of the same key with the same scope are shared, so one user's
// answer never reaches another. Without Scope every caller of a key
// shares its fetch.
//
// # Errors and cancellation
//
// A key's result, value or error, goes to every caller waiting for it.
// The fetch runs with the context of the caller that started it, without
// its cancellation (context.WithoutCancel; its values stay, so a trace
// span or an authorization header in the context is that caller's) and
// with SharedOptions.Timeout: a caller that goes away returns its
// context's error at once and does not cancel the fetch for the others.
// A fetch that panics gives every key ErrPanic.
type Shared[K comparable, V any] struct {
	fetch   FetchFunc[K, V]
	scope   func(context.Context) string
	timeout time.Duration

	mu      sync.Mutex
	flights map[sharedKey[K]]*flight[V]
	// joined, when set (tests), is called for each key a caller joins
	// another's fetch of, s.mu held.
	joined func(key K)
}

// SharedOptions configures a Shared.
type SharedOptions struct {
	// Scope returns what, beside the key, the fetch depends on for the
	// caller of ctx (its authorization header, its tenant); fetches are
	// shared only between callers with the same scope. Nil: the key alone.
	Scope func(ctx context.Context) string
	// Timeout bounds a shared fetch, which no caller can cancel
	// (DefaultSharedTimeout when 0; negative: none).
	Timeout time.Duration
}

// DefaultSharedTimeout is SharedOptions.Timeout's default.
const DefaultSharedTimeout = 30 * time.Second

type sharedKey[K comparable] struct {
	scope string
	key   K
}

// flight is one key's fetch in progress, complete once done is closed.
type flight[V any] struct {
	v    V
	err  error
	done chan struct{}
}

// NewShared returns a Shared fetching with fetch.
func NewShared[K comparable, V any](fetch FetchFunc[K, V], o SharedOptions) *Shared[K, V] {
	if o.Timeout == 0 {
		o.Timeout = DefaultSharedTimeout
	}
	return &Shared[K, V]{fetch: fetch, scope: o.Scope, timeout: o.Timeout, flights: map[sharedKey[K]]*flight[V]{}}
}

// Fetch is a FetchFunc: it returns the values of keys, fetching in one
// call the keys no other caller is fetching now (in the same scope), and
// waiting for the others. It returns ctx's error for the keys not done
// when ctx ends.
func (s *Shared[K, V]) Fetch(ctx context.Context, keys []K) ([]V, []error) {
	scope := ""
	if s.scope != nil {
		scope = s.scope(ctx)
	}
	flights := make([]*flight[V], len(keys))
	var own []K
	var owned []*flight[V]
	s.mu.Lock()
	for i, k := range keys {
		sk := sharedKey[K]{scope, k}
		f, ok := s.flights[sk]
		if ok {
			if s.joined != nil {
				s.joined(k)
			}
		} else {
			f = &flight[V]{done: make(chan struct{})}
			s.flights[sk] = f
			own = append(own, k)
			owned = append(owned, f)
		}
		flights[i] = f
	}
	s.mu.Unlock()
	if len(own) > 0 {
		go s.run(context.WithoutCancel(ctx), scope, own, owned)
	}
	vals := make([]V, len(keys))
	var errs []error
	for i, f := range flights {
		select {
		case <-f.done:
			vals[i] = f.v
			if f.err != nil {
				if errs == nil {
					errs = make([]error, len(keys))
				}
				errs[i] = f.err
			}
		case <-ctx.Done():
			if errs == nil {
				errs = make([]error, len(keys))
			}
			errs[i] = ctx.Err()
		}
	}
	return vals, errs
}

// Load returns the value of key as Fetch does.
func (s *Shared[K, V]) Load(ctx context.Context, key K) (V, error) {
	vals, errs := s.Fetch(ctx, []K{key})
	if errs != nil {
		return vals[0], errs[0]
	}
	return vals[0], nil
}

// run fetches keys for their flights, then removes the flights and
// completes them.
func (s *Shared[K, V]) run(ctx context.Context, scope string, keys []K, flights []*flight[V]) {
	if s.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.timeout)
		defer cancel()
	}
	vals, errs := s.call(ctx, keys)
	for i, f := range flights {
		switch {
		case len(errs) == 1 && (len(keys) != 1 || errs[0] != nil):
			f.err = errs[0]
		case len(errs) == len(keys) && errs[i] != nil:
			f.err = errs[i]
		case len(errs) > 1 && len(errs) != len(keys):
			f.err = fmt.Errorf("loader: fetch returned %d errors for %d keys", len(errs), len(keys))
		case len(vals) != len(keys):
			f.err = fmt.Errorf("loader: fetch returned %d values for %d keys", len(vals), len(keys))
		default:
			f.v = vals[i]
		}
	}
	s.mu.Lock()
	for _, k := range keys {
		delete(s.flights, sharedKey[K]{scope, k})
	}
	s.mu.Unlock()
	for _, f := range flights {
		close(f.done)
	}
}

// call runs the fetch function, turning a panic into ErrPanic.
func (s *Shared[K, V]) call(ctx context.Context, keys []K) (vals []V, errs []error) {
	defer func() {
		if p := recover(); p != nil {
			slog.Error("graphql: shared loader fetch panicked", "panic", p, "stack", string(debug.Stack()))
			vals, errs = nil, []error{ErrPanic}
		}
	}()
	return s.fetch(ctx, keys)
}
