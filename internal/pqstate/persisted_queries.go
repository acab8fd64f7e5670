package pqstate

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/graftgql/graft/internal/pqattach"
	"github.com/graftgql/graft/persisted"
)

// PersistedQueries resolves the persisted-query part of requests. It is
// safe for concurrent use.
type PersistedQueries struct {
	// The fields a hash-only hit reads come first, so they share a cache
	// line.

	// mem is the memory store's cache when the store is one
	// (pqattach.CacheOf): its entries keep what the router attaches to
	// them, and a lookup needs no call through the store.
	mem          *pqattach.Cache
	store        persisted.Store
	hashLen      int  // hex digits in a hash of the algorithm
	sha512       bool // the algorithm is SHA-512
	safelist     bool
	enableGet    bool
	validateHash bool
	algorithm    string
	hashKey      string

	opts          persisted.Options
	malformedHash map[string]string
	cacheControl  string
	maxQueryBytes int
	logger        *slog.Logger
	// keepsNoHash is set for the stores known to keep nothing of the
	// hash Get is given (the memory and safelist stores): a hash that
	// shares the request's memory is handed to them as it is, and copied
	// for any other store.
	keepsNoHash bool
	// registered limits the registrations of each client address (nil:
	// unlimited).
	registered *registrations
}

// New checks opts, fills in the defaults and returns the PersistedQueries
// they describe. Invalid options are an error that names the field.
func New(opts persisted.Options) (*PersistedQueries, error) {
	var errs []error
	switch opts.Mode {
	case "":
		opts.Mode = persisted.APQ
	case persisted.APQ, persisted.Safelist:
	default:
		errs = append(errs, fmt.Errorf("persisted: Mode %q is not %q or %q", opts.Mode, persisted.APQ, persisted.Safelist))
	}
	switch strings.ToLower(opts.HashAlgorithm) {
	case "", persisted.SHA256:
		opts.HashAlgorithm = persisted.SHA256
	case persisted.SHA512:
		opts.HashAlgorithm = persisted.SHA512
	default:
		errs = append(errs, fmt.Errorf("persisted: HashAlgorithm %q is not %q or %q", opts.HashAlgorithm, persisted.SHA256, persisted.SHA512))
	}
	if opts.Store == nil {
		if opts.Mode == persisted.Safelist {
			errs = append(errs, errors.New("persisted: safelist mode needs a Store (see NewSafelistStore and LoadManifest)"))
		} else {
			s, err := persisted.NewMemoryStore(persisted.DefaultStoreSize)
			if err != nil {
				errs = append(errs, err)
			}
			opts.Store = s
		}
	}
	if s, ok := opts.Store.(*persisted.SafelistStore); ok {
		if opts.Mode == persisted.APQ {
			errs = append(errs, errors.New("persisted: a SafelistStore is read-only and cannot back APQ mode; use Mode safelist"))
		}
		if alg := s.Algorithm(); alg != "" && alg != opts.HashAlgorithm {
			errs = append(errs, fmt.Errorf("persisted: the safelist holds %s hashes but HashAlgorithm is %s", alg, opts.HashAlgorithm))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if opts.EnableGet == nil {
		opts.EnableGet = new(true)
	}
	if opts.ValidateHash == nil {
		opts.ValidateHash = new(true)
	}
	if opts.CacheControl == "" {
		opts.CacheControl = persisted.DefaultCacheControl
	}
	if opts.MaxQueryBytes < 0 {
		return nil, fmt.Errorf("persisted: MaxQueryBytes must not be negative, got %d", opts.MaxQueryBytes)
	}
	if opts.MaxQueryBytes == 0 {
		opts.MaxQueryBytes = persisted.DefaultMaxQueryBytes
	}
	if opts.RegistrationsPerMinute == 0 {
		opts.RegistrationsPerMinute = persisted.DefaultRegistrationsPerMinute
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	cacheControl := opts.CacheControl
	if !*opts.ValidateHash && opts.Mode == persisted.APQ {
		// Any client may have registered the stored query: its answers
		// are not fit for a shared cache.
		cacheControl = PrivateCacheControl(cacheControl)
	}
	ms, memory := opts.Store.(*persisted.MemoryStore)
	if memory {
		ms.SetLogger(opts.Logger)
	}
	_, listed := opts.Store.(*persisted.SafelistStore)
	p := &PersistedQueries{
		opts:          opts,
		store:         opts.Store,
		safelist:      opts.Mode == persisted.Safelist,
		enableGet:     *opts.EnableGet,
		validateHash:  *opts.ValidateHash,
		algorithm:     opts.HashAlgorithm,
		hashKey:       sha256Key,
		cacheControl:  cacheControl,
		maxQueryBytes: opts.MaxQueryBytes,
		logger:        opts.Logger,
		keepsNoHash:   memory || listed,
		mem:           pqattach.CacheOf(opts.Store),
		hashLen:       hashLength(opts.HashAlgorithm),
		sha512:        opts.HashAlgorithm == persisted.SHA512,
	}
	if p.sha512 {
		p.hashKey = sha512Key
	}
	if opts.RegistrationsPerMinute > 0 && !p.safelist {
		p.registered = newRegistrations(opts.RegistrationsPerMinute)
	}
	n := p.hashLen
	p.malformedHash = map[string]string{
		sha256Key: fmt.Sprintf("extensions.persistedQuery.%s must be a %s hash: %d hex digits", sha256Key, p.algorithm, n),
		sha512Key: fmt.Sprintf("extensions.persistedQuery.%s must be a %s hash: %d hex digits", sha512Key, p.algorithm, n),
	}
	return p, nil
}

// Options returns the options in force, defaults filled in.
func (p *PersistedQueries) Options() persisted.Options { return p.opts }

// Hash returns the hash of query with the configured algorithm.
func (p *PersistedQueries) Hash(query string) string { return persisted.Hash(p.algorithm, query) }

// Register stores query under hash, once the router has parsed and
// validated it and checked its limits. A store failure is logged and
// skipped: the request goes on. A query over Options.MaxQueryBytes is not
// stored. In Safelist mode it does nothing.
func (p *PersistedQueries) Register(ctx context.Context, client, hash, query string) {
	if p.safelist {
		return
	}
	if len(query) > p.maxQueryBytes {
		p.logger.DebugContext(ctx, "persisted: query too large to register; it runs but is not stored",
			slog.String("hash", hash), slog.Int("bytes", len(query)), slog.Int("maxQueryBytes", p.maxQueryBytes))
		return
	}
	if p.registered != nil && !p.registered.allow(client) {
		p.logger.DebugContext(ctx, "persisted: the client registers too many queries; this one runs but is not stored",
			slog.String("hash", hash), slog.String("client", client), slog.Int("registrationsPerMinute", p.opts.RegistrationsPerMinute))
		return
	}
	hash = strings.Clone(hash) // it may share the request's memory (see Resolution.Hash)
	if err := p.store.Set(ctx, hash, query); err != nil {
		p.logger.Log(ctx, storeErrorLevel(err), "persisted: storing a persisted query failed; it was not registered",
			slog.String("hash", hash), slog.Any("err", err))
	}
}

// Entries returns every allowed query by hash, in Safelist mode with a
// store that can list them (a Lister such as *SafelistStore), so a router
// can validate them all when it starts. Otherwise it returns nil, false.
func (p *PersistedQueries) Entries(ctx context.Context) (map[string]string, bool) {
	if !p.safelist {
		return nil, false
	}
	l, ok := p.store.(persisted.Lister)
	if !ok {
		return nil, false
	}
	return l.Entries(), true
}

// PrivateCacheControl returns cc made fit only for the client's own cache:
// a "public" directive becomes "private", and "private" is added unless cc
// already says private or no-store. An empty cc stays empty.
func PrivateCacheControl(cc string) string {
	if cc == "" {
		return ""
	}
	var out []string
	private := false
	for d := range strings.SplitSeq(cc, ",") {
		d = strings.TrimSpace(d)
		name, _, _ := strings.Cut(strings.ToLower(d), "=")
		switch name {
		case "":
			continue
		case "public", "s-maxage", "proxy-revalidate":
			continue
		case "private", "no-store":
			private = true
		}
		out = append(out, d)
	}
	if !private {
		out = append([]string{"private"}, out...)
	}
	return strings.Join(out, ", ")
}
