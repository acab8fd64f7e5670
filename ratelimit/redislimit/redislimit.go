// Package redislimit is a ratelimit.Store in Redis, so that every
// instance of a service charges one budget per key:
//
//	client := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
//	limiter, err := ratelimit.New(ratelimit.Options{Budget: 1000, Store: redislimit.New(client, redislimit.Options{})})
//
// Each key is one Redis string holding what it spent, expiring when its
// window ends; a Lua script reads, checks and adds in one atomic step, so
// instances charging the same key at once never pass its budget together.
package redislimit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/graftgql/graft/ratelimit"
)

// DefaultPrefix is the key prefix of Options.Prefix when empty.
const DefaultPrefix = "graft:rl:"

// DefaultTimeout bounds one call to Redis when Options.Timeout is zero.
const DefaultTimeout = 500 * time.Millisecond

// Options configures a Store. The zero value is usable.
type Options struct {
	// Prefix is put before each key. Default DefaultPrefix; instances
	// that share budgets use the same prefix.
	Prefix string
	// Timeout bounds each call to Redis. Default DefaultTimeout; the
	// Limiter lets the operation through, logged, when Redis fails.
	Timeout time.Duration
}

// Store is a ratelimit.Store in Redis. It is safe for concurrent use.
type Store struct {
	client  redis.UniversalClient
	prefix  string
	timeout time.Duration
}

// New returns a Store over client; closing the client is the caller's.
func New(client redis.UniversalClient, opts Options) *Store {
	if opts.Prefix == "" {
		opts.Prefix = DefaultPrefix
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	return &Store{client: client, prefix: opts.Prefix, timeout: opts.Timeout}
}

// spendScript applies one charge to KEYS[1]: ARGV[1] the cost, ARGV[2]
// the budget, ARGV[3] the window in milliseconds. It returns {allowed,
// spent, milliseconds until the window ends}.
var spendScript = redis.NewScript(`
local spent = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
if ttl <= 0 then
  spent = 0
  ttl = tonumber(ARGV[3])
end
local cost = tonumber(ARGV[1])
if cost > 0 and cost > tonumber(ARGV[2]) - spent then
  return {0, spent, ttl}
end
spent = spent + cost
if spent < 0 then spent = 0 end
redis.call('SET', KEYS[1], spent, 'PX', ttl)
return {1, spent, ttl}
`)

// maxKeyBytes is the longest key stored as it is; a longer one is stored
// as its SHA-256.
const maxKeyBytes = 64

// Spend implements ratelimit.Store.
func (s *Store) Spend(ctx context.Context, key string, cost, budget int64, window time.Duration) (ratelimit.Usage, error) {
	if len(key) > maxKeyBytes {
		sum := sha256.Sum256([]byte(key))
		key = hex.EncodeToString(sum[:])
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	now := time.Now()
	res, err := spendScript.Run(ctx, s.client, []string{s.prefix + key}, cost, budget, max(window.Milliseconds(), 1)).Int64Slice()
	if err != nil {
		return ratelimit.Usage{}, fmt.Errorf("redislimit: %w", err)
	}
	if len(res) != 3 {
		return ratelimit.Usage{}, fmt.Errorf("redislimit: the script answered %v", res)
	}
	return ratelimit.Usage{Allowed: res[0] == 1, Spent: res[1], Reset: now.Add(time.Duration(res[2]) * time.Millisecond)}, nil
}
