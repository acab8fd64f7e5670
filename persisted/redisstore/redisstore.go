// Package redisstore keeps graft's persisted queries in Redis, so that every
// instance of a server sees the queries any of them registered. It works
// with any go-redis UniversalClient: a single node, a cluster or a sentinel
// set-up.
//
//	client := redis.NewClient(&redis.Options{Addr: "localhost:6379", ContextTimeoutEnabled: true})
//	store := redisstore.New(client, redisstore.Options{TTL: 24 * time.Hour, LocalCacheSize: 1000})
//	cfg.PersistedQueries = &persisted.Options{Store: store}
//
// Every call is bounded by Options.Timeout, so a hung Redis slows a request
// by at most that much; package persisted then treats the failure as a miss (APQ)
// or refuses the request (safelist). After a failure a circuit breaker
// opens for Options.BreakerCooldown: calls fail at once with
// ErrCircuitOpen instead of each waiting for the timeout, until a trial
// call (or a Ping) succeeds.
//
// Keys expire after Options.TTL (24 hours by default), refreshed on each
// hit, so queries nobody uses any more leave Redis. To cap the memory
// Redis gives to persisted queries, also set maxmemory with an LRU policy
// on the Redis server (maxmemory-policy allkeys-lru, or volatile-lru when
// the instance holds other keys without a TTL).
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/redis/go-redis/v9"

	"github.com/graftgql/graft/persisted"
)

// Defaults for Options.
const (
	DefaultPrefix          = "graft:pq:"
	DefaultTimeout         = time.Second
	DefaultTTL             = 24 * time.Hour
	DefaultBreakerCooldown = 5 * time.Second
)

// ErrCircuitOpen is returned, without calling Redis, while the circuit
// breaker is open after a failure.
// It wraps persisted.ErrUnavailable, so these failures are logged at debug
// level only.
var ErrCircuitOpen = fmt.Errorf("redisstore: Redis unavailable (circuit breaker open after a failure): %w", persisted.ErrUnavailable)

// Options configures a Store. The zero value is usable.
type Options struct {
	// Prefix is put before each hash to make the Redis key. Empty means
	// DefaultPrefix. Servers that share queries use the same prefix.
	Prefix string
	// TTL is how long a registered query is kept after it was last set or
	// read: each hit refreshes it (GETEX, Redis 6.2 or later). Zero means
	// DefaultTTL (24 hours); a negative TTL keeps keys until Redis evicts
	// them.
	TTL time.Duration
	// Timeout bounds each call to Redis. 0 (or less) means DefaultTimeout.
	Timeout time.Duration
	// LocalCacheSize, when positive, puts an in-process LRU of that many
	// queries in front of Redis, so repeated hashes skip the network. A
	// local entry lives at most TTL, like its Redis key.
	LocalCacheSize int
	// BreakerCooldown is how long calls fail at once with ErrCircuitOpen
	// after a failed call, before one trial call may reach Redis again.
	// Zero means DefaultBreakerCooldown; a negative value turns the
	// breaker off.
	BreakerCooldown time.Duration
}

// Store is a persisted.Store backed by Redis. It is safe for concurrent use.
type Store struct {
	client    redis.UniversalClient
	prefix    string
	ttl       time.Duration
	timeout   time.Duration
	ctxAware  bool
	local     *lru.Cache[string, localEntry]
	timeNow   func() time.Time
	ownClient redis.UniversalClient
	breaker   breaker
}

type localEntry struct {
	query   string
	expires time.Time // zero: no expiry
}

var _ persisted.Store = (*Store)(nil)

// New returns a Store that keeps queries in Redis through client. The
// client stays the caller's to close.
func New(client redis.UniversalClient, opts Options) *Store {
	if opts.Prefix == "" {
		opts.Prefix = DefaultPrefix
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	switch {
	case opts.TTL == 0:
		opts.TTL = DefaultTTL
	case opts.TTL < 0:
		opts.TTL = 0
	}
	if opts.BreakerCooldown == 0 {
		opts.BreakerCooldown = DefaultBreakerCooldown
	}
	s := &Store{
		client:   client,
		prefix:   opts.Prefix,
		ttl:      opts.TTL,
		timeout:  opts.Timeout,
		ctxAware: contextTimeouts(client),
		timeNow:  time.Now,
		breaker:  breaker{cooldown: opts.BreakerCooldown},
	}
	if opts.LocalCacheSize > 0 {
		// lru.New fails only for a size of 0 or less, excluded here.
		s.local, _ = lru.New[string, localEntry](opts.LocalCacheSize)
	}
	return s
}

// NewFromURL connects to the Redis named by a redis:// or rediss:// URL
// (see redis.ParseURL) and returns a Store over it. Close closes the client.
func NewFromURL(url string, opts Options) (*Store, error) {
	o, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redisstore: %w", err)
	}
	o.ContextTimeoutEnabled = true
	c := redis.NewClient(o)
	s := New(c, opts)
	s.ownClient = c
	return s, nil
}

// Close closes the client when NewFromURL made it; otherwise it does
// nothing.
func (s *Store) Close() error {
	if s.ownClient == nil {
		return nil
	}
	return s.ownClient.Close()
}

// contextTimeouts reports whether the client honours context deadlines
// itself (go-redis' ContextTimeoutEnabled). When it does not, or when it
// cannot be told, calls are bounded by the store instead.
func contextTimeouts(c redis.UniversalClient) bool {
	switch c := c.(type) {
	case *redis.Client:
		return c.Options().ContextTimeoutEnabled
	case *redis.ClusterClient:
		return c.Options().ContextTimeoutEnabled
	case *redis.Ring:
		return c.Options().ContextTimeoutEnabled
	}
	return false
}

// Get returns the query stored under hash and refreshes its TTL. A miss is
// ("", false, nil).
func (s *Store) Get(ctx context.Context, hash string) (string, bool, error) {
	if s.local != nil {
		if e, ok := s.local.Get(hash); ok {
			if e.expires.IsZero() || s.timeNow().Before(e.expires) {
				return e.query, true, nil
			}
			s.local.Remove(hash)
		}
	}
	q, err := call(ctx, s, func(ctx context.Context) (string, error) {
		if s.ttl > 0 {
			return s.client.GetEx(ctx, s.prefix+hash, s.ttl).Result()
		}
		return s.client.Get(ctx, s.prefix+hash).Result()
	})
	if errors.Is(err, redis.Nil) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("redisstore: get %s: %w", hash, err)
	}
	s.remember(hash, q)
	return q, true, nil
}

// Set stores query under hash, with the TTL.
func (s *Store) Set(ctx context.Context, hash, query string) error {
	_, err := call(ctx, s, func(ctx context.Context) (string, error) {
		return s.client.Set(ctx, s.prefix+hash, query, s.ttl).Result()
	})
	if err != nil {
		return fmt.Errorf("redisstore: set %s: %w", hash, err)
	}
	s.remember(hash, query)
	return nil
}

// Ping checks that Redis answers, within the timeout; for readiness checks.
// It always reaches Redis, whatever the circuit breaker says, so readiness
// stays honest; its outcome opens or closes the breaker.
func (s *Store) Ping(ctx context.Context) error {
	_, err := callWith(ctx, s, true, func(ctx context.Context) (string, error) {
		return s.client.Ping(ctx).Result()
	})
	if err != nil {
		return fmt.Errorf("redisstore: ping: %w", err)
	}
	return nil
}

// Key returns the Redis key a hash is stored under.
func (s *Store) Key(hash string) string { return s.prefix + hash }

func (s *Store) remember(hash, query string) {
	if s.local == nil {
		return
	}
	e := localEntry{query: query}
	if s.ttl > 0 {
		e.expires = s.timeNow().Add(s.ttl)
	}
	s.local.Add(hash, e)
}

type result[T any] struct {
	v   T
	err error
}

// call runs fn with ctx bounded by the store's timeout. When the client does
// not honour context deadlines, fn runs on its own goroutine and call
// returns when the deadline passes; the abandoned command ends with the
// client's own read timeout.
func call[T any](ctx context.Context, s *Store, fn func(context.Context) (T, error)) (T, error) {
	return callWith(ctx, s, false, fn)
}

// callWith is call; force skips the breaker's check (but not its
// bookkeeping).
func callWith[T any](ctx context.Context, s *Store, force bool, fn func(context.Context) (T, error)) (T, error) {
	var zero T
	if !force && !s.breaker.allow(s.timeNow()) {
		return zero, ErrCircuitOpen
	}
	v, err := bounded(ctx, s, fn)
	switch {
	case err == nil || errors.Is(err, redis.Nil):
		s.breaker.succeeded()
	case ctx.Err() != nil:
		// The caller gave up: that says nothing about Redis.
		s.breaker.abandoned()
	default:
		s.breaker.failed(s.timeNow())
	}
	return v, err
}

// bounded runs fn with ctx bounded by the store's timeout.
func bounded[T any](ctx context.Context, s *Store, fn func(context.Context) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	if s.ctxAware {
		return fn(ctx)
	}
	done := make(chan result[T], 1)
	go func() {
		v, err := fn(ctx)
		done <- result[T]{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}
