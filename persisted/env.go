package persisted

import (
	"cmp"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/graftgql/graft/internal/envconf"
)

// The environment variables ConfigFromEnv reads, declared with the others
// in internal/envconf.
const (
	envMode          = "PERSISTED_QUERIES_MODE"
	envEnableGet     = "PERSISTED_QUERIES_ENABLE_GET"
	envValidateHash  = "PERSISTED_QUERIES_VALIDATE_HASH"
	envHashAlgorithm = "PERSISTED_QUERIES_HASH_ALGORITHM"
	envManifest      = "PERSISTED_QUERIES_MANIFEST"
	envCacheControl  = "PERSISTED_QUERIES_CACHE_CONTROL"
	envStoreSize     = "PERSISTED_QUERIES_STORE_SIZE"
	envStoreBytes    = "PERSISTED_QUERIES_STORE_BYTES"
	envMaxQueryBytes = "PERSISTED_QUERIES_MAX_QUERY_BYTES"

	envRegistrationsPerMinute = "PERSISTED_QUERIES_REGISTRATIONS_PER_MINUTE"
)

// ConfigFromEnv reads Options from the process environment; see
// ConfigFromLookup.
func ConfigFromEnv() (Options, error) { return ConfigFromLookup(nil) }

// ConfigFromLookup reads Options from variables found with lookup
// (os.LookupEnv when nil): the PERSISTED_QUERIES_* variables of README.md's
// configuration table (the Env constants above). The mode is apq or
// safelist in any case; a manifest (see LoadManifest) is loaded into a
// SafelistStore and implies safelist; the store size and bytes make an
// APQ memory store of that many entries and bytes; the maximum query bytes
// bound what is registered.
//
// Booleans are true/false, 1/0, yes/no or on/off in any case. A variable
// set to the empty string counts as unset. Mode stays empty when neither
// PERSISTED_QUERIES_MODE nor PERSISTED_QUERIES_MANIFEST is set, so a caller
// can tell that the environment did not ask for persisted queries. Every
// bad variable is reported at once (errors.Join), each error naming the
// variable and its value.
func ConfigFromLookup(lookup func(string) (string, bool)) (Options, error) {
	var s envconf.Persisted
	var errs []error
	if err := envconf.Parse(&s, lookup); err != nil {
		errs = append(errs, err) // and report the other bad variables too
	}
	var opts Options
	bad := func(name, value, want string) {
		errs = append(errs, fmt.Errorf("persisted: %s=%q: %s", name, value, want))
	}

	if v := s.Mode; v != "" {
		switch Mode(strings.ToLower(strings.TrimSpace(v))) {
		case APQ:
			opts.Mode = APQ
		case Safelist:
			opts.Mode = Safelist
		default:
			bad(envMode, v, `want "apq" or "safelist"`)
		}
	}
	if s.EnableGet != nil {
		v := bool(*s.EnableGet)
		opts.EnableGet = &v
	}
	if s.ValidateHash != nil {
		v := bool(*s.ValidateHash)
		opts.ValidateHash = &v
	}
	if v := s.HashAlgorithm; v != "" {
		switch a := strings.ToLower(strings.TrimSpace(v)); a {
		case SHA256, SHA512:
			opts.HashAlgorithm = a
		default:
			bad(envHashAlgorithm, v, `want "sha256" or "sha512"`)
		}
	}
	opts.CacheControl = s.CacheControl
	positive := func(name, v string) int {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n <= 0 {
			bad(name, v, "want a positive integer")
			return 0
		}
		return n
	}
	if s.MaxQueryBytes != "" {
		opts.MaxQueryBytes = positive(envMaxQueryBytes, s.MaxQueryBytes)
	}
	if v := s.Registrations; v != "" {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			bad(envRegistrationsPerMinute, v, "want an integer (negative: unlimited)")
		}
		opts.RegistrationsPerMinute = n
	}
	manifest, hasManifest := s.Manifest, s.Manifest != ""
	size, hasSize := s.StoreSize, s.StoreSize != ""
	storeBytes, hasBytes := s.StoreBytes, s.StoreBytes != ""
	sizeVar := envStoreSize
	if hasBytes && !hasSize {
		size, hasSize, sizeVar = strconv.Itoa(DefaultStoreSize), true, envStoreBytes
	}
	if hasManifest {
		switch {
		case opts.Mode == APQ:
			bad(envManifest, manifest, fmt.Sprintf("a manifest is a safelist, but %s is apq", envMode))
		case hasSize:
			bad(sizeVar, size, fmt.Sprintf("the store size is for the APQ memory store, not with %s", envManifest))
		default:
			if opts.Mode == "" {
				opts.Mode = Safelist
			}
			if entries, err := LoadManifest(manifest); err != nil {
				errs = append(errs, fmt.Errorf("persisted: %s=%q: %w", envManifest, manifest, err))
			} else if s, err := NewSafelistStore(entries); err != nil {
				errs = append(errs, fmt.Errorf("persisted: %s=%q: %w", envManifest, manifest, err))
			} else if alg, want := s.Algorithm(), cmp.Or(opts.HashAlgorithm, SHA256); alg != "" && alg != want {
				bad(envManifest, manifest, fmt.Sprintf("the manifest holds %s hashes but %s is %s", alg, envHashAlgorithm, want))
			} else {
				opts.Store = s
			}
		}
	} else if hasSize {
		n, err := strconv.Atoi(strings.TrimSpace(size))
		nb := int64(DefaultStoreBytes)
		if hasBytes {
			nb = int64(positive(envStoreBytes, storeBytes))
		}
		switch {
		case err != nil || n <= 0:
			bad(envStoreSize, size, "want a positive integer")
		case nb <= 0:
		case opts.Mode == Safelist:
			bad(sizeVar, size, "the store size is for the APQ memory store, not safelist mode")
		default:
			s, err := NewMemoryStoreBytes(n, nb)
			if err != nil {
				errs = append(errs, fmt.Errorf("persisted: %s=%q: %w", envStoreSize, size, err))
			} else {
				opts.Store = s
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return Options{}, err
	}
	return opts, nil
}
