// Package loader batches and caches keyed fetches made by resolvers
// during one request.
//
// A Loader lives for one request: provide it as a request service of the
// layer, so each request builds its own and its cache never outlives the
// request:
//
//	graft.ProvideRequest(layer, func(ctx context.Context) (*loader.Loader[string, User], error) {
//		return loader.New(fetchUsers), nil
//	})
//
// and call Load from resolvers:
//
//	users, err := graft.Service[*loader.Loader[string, User]](ctx)
//	...
//	u, err := users.Load(ctx, post.AuthorID)
//
// # When a batch is sent
//
// There is no wait window. graft runs the resolvers of one level of the
// response as tasks; a Load blocks its task and queues the key. When every
// task of the request is finished or blocked, nothing more can add a key,
// and graft sends every queued batch at once (one fetch call per loader),
// each in its own goroutine. Resolvers declared with schema.Concurrent run
// beside each other, so the loads of all items of a list share one batch;
// group resolvers (schema.GroupFieldFunc) may call Load as well. A
// resolver that is not Concurrent but is resolved ahead (a group or
// Concurrent field below it) runs one at a time with its list neighbours,
// and while its Load waits the next one starts: their loads share one
// fetch too. A Load outside a tracked task (from a goroutine the resolver
// started, or from a resolver that is not Concurrent and is resolved as
// the answer is written) is sent as a fetch of its own, one fetch per item
// of a list: the first such Load of a fetch function logs a warning that
// says to declare the resolver Concurrent. LoadMany there sends its
// uncached keys in one.
//
// A key is fetched at most once per Loader, and a fetch gets each distinct
// key once: later Loads of the same key share the first one's result,
// error included. Prime stores a value
// without fetching.
package loader

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"runtime/debug"
	"sync"

	"github.com/graftgql/graft/internal/batchsched"
)

// FetchFunc fetches the values of keys in one call. It returns one value
// per key, in the order of keys, and either nil errors, one error per key
// (nil for the keys that succeeded), or a single error that applies to
// every key.
type FetchFunc[K comparable, V any] func(ctx context.Context, keys []K) ([]V, []error)

// Loader batches and caches the fetches of one request. It is safe for
// concurrent use.
type Loader[K comparable, V any] struct {
	fetch   FetchFunc[K, V]
	maxKeys int

	mu      sync.Mutex
	cache   map[K]*entry[V]
	pending []K
	queued  *batchsched.Scheduler // the scheduler pending keys are queued with
}

// entry is the result of one key, complete once done is closed.
type entry[V any] struct {
	v        V
	err      error
	done     chan struct{}
	finished bool // set once its waiters were taken
	waiters  []*batchsched.Task
}

// Option configures a Loader.
type Option func(*options)

type options struct{ maxKeys int }

// MaxKeys bounds the keys of one fetch call; a larger fetch is split into
// calls of at most n keys, sent together. 0 means no bound.
func MaxKeys(n int) Option { return func(o *options) { o.maxKeys = n } }

// MaxBatch is MaxKeys's former name.
//
// Deprecated: use MaxKeys; MaxBatch goes in the next release.
func MaxBatch(n int) Option { return MaxKeys(n) }

// New returns a Loader that fetches with fetch.
func New[K comparable, V any](fetch FetchFunc[K, V], opts ...Option) *Loader[K, V] {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	return &Loader[K, V]{fetch: fetch, maxKeys: o.maxKeys, cache: map[K]*entry[V]{}}
}

// Load returns the value of key, fetching it in a batch with the other
// keys loaded while the request works on the same level.
func (l *Loader[K, V]) Load(ctx context.Context, key K) (V, error) {
	task := batchsched.From(ctx)
	l.mu.Lock()
	e, ok := l.cache[key]
	if ok {
		if e.finished {
			l.mu.Unlock()
			<-e.done
			return e.v, e.err
		}
	} else {
		e = &entry[V]{done: make(chan struct{})}
		l.cache[key] = e
		if task == nil {
			l.mu.Unlock()
			l.warnUntracked()
			l.run(ctx, []K{key})
			return e.v, e.err
		}
		l.pending = append(l.pending, key)
		if l.queued == nil {
			l.queued = task.Scheduler()
			task.Scheduler().Enqueue(l)
		}
	}
	if task == nil {
		l.mu.Unlock()
		<-e.done
		return e.v, e.err
	}
	e.waiters = append(e.waiters, task)
	l.mu.Unlock()
	task.Block()
	<-e.done
	task.Resume()
	return e.v, e.err
}

// untrackedWarned holds the fetch functions whose loaders were warned
// about a Load outside a tracked task, by code address: once per fetch
// function for the process.
var untrackedWarned sync.Map

// warnUntracked logs, once per fetch function, that a key is being
// fetched on its own because the Load came from outside a tracked task:
// a resolver that is neither Concurrent nor resolved ahead makes one
// fetch per item of a list, which is seldom what was meant.
func (l *Loader[K, V]) warnUntracked() {
	key := reflect.ValueOf(l.fetch).Pointer()
	if _, seen := untrackedWarned.LoadOrStore(key, true); seen {
		return
	}
	slog.Warn("loader: Load from a resolver that is not declared schema.Concurrent (or from a goroutine it started): "+
		"each such key is fetched in a call of its own, one per item of a list; declare the resolver with schema.Concurrent() "+
		"so that the loads of a list share one batch",
		"key_type", fmt.Sprintf("%T", *new(K)), "value_type", fmt.Sprintf("%T", *new(V)))
}

// LoadMany loads keys as Load does, all in the same batch, and returns
// their values and errors in the order of keys (errs is nil when all
// succeeded).
func (l *Loader[K, V]) LoadMany(ctx context.Context, keys []K) ([]V, []error) {
	vals := make([]V, len(keys))
	errs := make([]error, len(keys))
	task := batchsched.From(ctx)
	if len(keys) < 2 {
		for i, k := range keys {
			vals[i], errs[i] = l.Load(ctx, k)
		}
		return vals, nonNil(errs)
	}
	if task == nil {
		// Untracked: fetch the keys not cached yet in one batch now.
		entries := make([]*entry[V], len(keys))
		var missing []K
		l.mu.Lock()
		for i, k := range keys {
			e, ok := l.cache[k]
			if !ok {
				e = &entry[V]{done: make(chan struct{})}
				l.cache[k] = e
				missing = append(missing, k)
			}
			entries[i] = e
		}
		l.mu.Unlock()
		l.fetchAll(ctx, missing)
		for i, e := range entries {
			<-e.done
			vals[i], errs[i] = e.v, e.err
		}
		return vals, nonNil(errs)
	}
	// Each key waits in a task of its own, all registered before the
	// caller blocks, so that every key is queued before the batch is sent.
	s := task.Scheduler()
	subs := make([]*batchsched.Task, len(keys))
	for i := range subs {
		subs[i] = s.NewTask()
	}
	task.Block()
	var wg sync.WaitGroup
	for i, k := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer subs[i].Done()
			vals[i], errs[i] = l.Load(subs[i].Context(ctx), k)
		}()
	}
	wg.Wait()
	task.Wake()
	task.Resume()
	return vals, nonNil(errs)
}

// nonNil returns errs, or nil when it holds no error.
func nonNil(errs []error) []error {
	for _, err := range errs {
		if err != nil {
			return errs
		}
	}
	return nil
}

// Prime stores the value of key unless the key is already loaded or being
// loaded; a resolver that fetched a page of objects can prime the loader
// of those objects by id.
func (l *Loader[K, V]) Prime(key K, v V) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.cache[key]; ok {
		return
	}
	e := &entry[V]{v: v, done: make(chan struct{}), finished: true}
	close(e.done)
	l.cache[key] = e
}

// Clear forgets the cached result of key, so the next Load fetches it.
func (l *Loader[K, V]) Clear(key K) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e, ok := l.cache[key]; ok {
		select {
		case <-e.done:
			delete(l.cache, key)
		default:
		}
	}
}

// Dispatch sends the pending keys. The request's scheduler calls it once
// no task can add keys; it is not meant to be called otherwise.
func (l *Loader[K, V]) Dispatch(ctx context.Context) {
	l.mu.Lock()
	keys := l.pending
	l.pending, l.queued = nil, nil
	l.mu.Unlock()
	l.fetchAll(ctx, keys)
}

// fetchAll fetches keys, in calls of at most MaxBatch keys sent together.
func (l *Loader[K, V]) fetchAll(ctx context.Context, keys []K) {
	if l.maxKeys <= 0 || len(keys) <= l.maxKeys {
		l.run(ctx, keys)
		return
	}
	var wg sync.WaitGroup
	for len(keys) > 0 {
		n := min(len(keys), l.maxKeys)
		chunk := keys[:n]
		keys = keys[n:]
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.run(ctx, chunk)
		}()
	}
	wg.Wait()
}

// run fetches keys and completes their entries.
func (l *Loader[K, V]) run(ctx context.Context, keys []K) {
	if len(keys) == 0 {
		return
	}
	vals, errs := l.call(ctx, keys)
	l.mu.Lock()
	entries := make([]*entry[V], len(keys))
	for i, k := range keys {
		entries[i] = l.cache[k]
	}
	l.mu.Unlock()
	for i, e := range entries {
		if e == nil {
			continue
		}
		switch {
		case len(errs) == 1 && (len(keys) != 1 || errs[0] != nil):
			e.err = errs[0]
		case len(errs) == len(keys) && errs[i] != nil:
			e.err = errs[i]
		case len(errs) > 1 && len(errs) != len(keys):
			e.err = fmt.Errorf("loader: fetch returned %d errors for %d keys", len(errs), len(keys))
		case len(vals) != len(keys):
			e.err = fmt.Errorf("loader: fetch returned %d values for %d keys", len(vals), len(keys))
		default:
			e.v = vals[i]
		}
	}
	for _, e := range entries {
		if e == nil {
			continue
		}
		l.mu.Lock()
		waiters := e.waiters
		e.waiters, e.finished = nil, true
		l.mu.Unlock()
		for _, t := range waiters {
			t.Wake()
		}
		close(e.done)
	}
}

// ErrPanic is the error of every key of a fetch call that panicked; the
// panic is logged.
var ErrPanic = errors.New("loader: fetch panicked")

// call runs the fetch function, turning a panic into ErrPanic.
func (l *Loader[K, V]) call(ctx context.Context, keys []K) (vals []V, errs []error) {
	defer func() {
		if p := recover(); p != nil {
			slog.Error("graphql: loader fetch panicked", "panic", p, "stack", string(debug.Stack()))
			vals, errs = nil, []error{ErrPanic}
		}
	}()
	return l.fetch(ctx, keys)
}
