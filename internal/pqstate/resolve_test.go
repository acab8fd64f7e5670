package pqstate

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/gqlerr"

	"github.com/graftgql/graft/persisted"
)

// wantErr describes the *Error a Resolve call must return.
type wantErr struct {
	status       int
	code         string
	message      string
	ext          map[string]any // further extensions, beside code
	cacheControl string
	allow        string
}

type resolveCase struct {
	name    string
	opts    persisted.Options // Store nil: a store seeded from seed
	seed    map[string]string // entries of the memory (APQ) or safelist store
	isGet   bool
	query   string
	ext     map[string]any
	want    Resolution
	wantErr *wantErr
}

func runResolveCases(t *testing.T, cases []resolveCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := tc.opts
			if opts.Store == nil {
				if opts.Mode == persisted.Safelist {
					s, err := persisted.NewSafelistStore(tc.seed)
					if err != nil {
						t.Fatal(err)
					}
					opts.Store = s
				} else {
					s, _ := persisted.NewMemoryStore(10)
					for h, q := range tc.seed {
						_ = s.Set(context.Background(), h, q)
					}
					opts.Store = s
				}
			}
			if opts.Logger == nil {
				opts.Logger, _ = newTestLogger()
			}
			p, err := New(opts)
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			got, err := p.Resolve(context.Background(), tc.isGet, tc.query, tc.ext)
			checkResolve(t, got, err, tc.want, tc.wantErr)
		})
	}
}

func checkResolve(t *testing.T, got Resolution, err error, want Resolution, we *wantErr) {
	t.Helper()
	if we == nil {
		if err != nil {
			t.Fatalf("Resolve error %v, want %+v", err, want)
		}
		got.Slot = nil // TestResolveGivesTheMemoryStoresSlot checks it
		if got != want {
			t.Fatalf("Resolve = %+v, want %+v", got, want)
		}
		return
	}
	var pe *Error
	if !errors.As(err, &pe) {
		t.Fatalf("Resolve error = %v (%T), want *Error with code %s", err, err, we.code)
	}
	if got != (Resolution{}) {
		t.Errorf("Resolution = %+v alongside an error, want zero", got)
	}
	if pe.Status != we.status {
		t.Errorf("Status = %d, want %d", pe.Status, we.status)
	}
	if pe.Err.Message != we.message {
		t.Errorf("message = %q, want %q", pe.Err.Message, we.message)
	}
	wantExt := map[string]any{"code": we.code}
	for k, v := range we.ext {
		wantExt[k] = v
	}
	if !reflect.DeepEqual(pe.Err.Extensions, wantExt) {
		t.Errorf("extensions = %v, want %v", pe.Err.Extensions, wantExt)
	}
	if pe.CacheControl != we.cacheControl {
		t.Errorf("CacheControl = %q, want %q", pe.CacheControl, we.cacheControl)
	}
	if pe.Allow != we.allow {
		t.Errorf("Allow = %q, want %q", pe.Allow, we.allow)
	}
	if !pe.Public() {
		t.Error("Public() = false, want true")
	}
}

func badRequest(msg string) *wantErr {
	return &wantErr{status: http.StatusBadRequest, code: gqlerr.BadRequest, message: msg}
}

func TestResolveAPQ(t *testing.T) {
	notFound := &wantErr{status: http.StatusOK, code: gqlerr.PersistedQueryNotFound, message: "PersistedQueryNotFound", cacheControl: NotFoundCacheControl}
	known := map[string]string{hHero: qHero}
	cases := []resolveCase{
		{name: "plain query passes untouched", query: qHero, want: Resolution{Query: qHero}},
		{name: "plain query over GET passes untouched", isGet: true, query: qHero, want: Resolution{Query: qHero}},
		{name: "no query and no extension passes to the router", want: Resolution{}},
		{name: "null persistedQuery is a plain request", query: qHero, ext: map[string]any{"persistedQuery": nil}, want: Resolution{Query: qHero}},
		{name: "other extensions are ignored", query: qHero, ext: map[string]any{"tracing": true}, want: Resolution{Query: qHero}},
		{name: "unknown hash without query is not found", ext: pqExt(sha256Key, hHero), wantErr: notFound},
		{name: "unknown hash without query over GET is not found", isGet: true, ext: pqExt(sha256Key, hHero), wantErr: notFound},
		{name: "unknown hash with matching query registers", query: qHero, ext: pqExt(sha256Key, hHero),
			want: Resolution{Query: qHero, Hash: hHero, Persisted: true, Register: true}},
		{name: "GET with hash and query registers too", isGet: true, query: qHero, ext: pqExt(sha256Key, hHero),
			want: Resolution{Query: qHero, Hash: hHero, Persisted: true, Register: true}},
		{name: "uppercase hash matches and is stored lowercase", query: qHero, ext: pqExt(sha256Key, strings.ToUpper(hHero)),
			want: Resolution{Query: qHero, Hash: hHero, Persisted: true, Register: true}},
		{name: "mismatching query is refused", query: qDroid, ext: pqExt(sha256Key, hHero),
			wantErr: &wantErr{status: http.StatusBadRequest, code: gqlerr.PersistedQueryHashMismatch, message: "Provided query does not match hash",
				ext: map[string]any{"providedHash": hHero, "computedHash": hDroid}}},
		{name: "mismatch reports the hash as sent", query: qDroid, ext: pqExt(sha256Key, strings.ToUpper(hHero)),
			wantErr: &wantErr{status: http.StatusBadRequest, code: gqlerr.PersistedQueryHashMismatch, message: "Provided query does not match hash",
				ext: map[string]any{"providedHash": strings.ToUpper(hHero), "computedHash": hDroid}}},
		{name: "mismatch registers under the sent hash with ValidateHash off", opts: persisted.Options{ValidateHash: new(false)},
			query: qDroid, ext: pqExt(sha256Key, hHero),
			want: Resolution{Query: qDroid, Hash: hHero, Persisted: true, Register: true}},
		{name: "known hash runs the stored query", seed: known, ext: pqExt(sha256Key, hHero),
			want: Resolution{Query: qHero, Hash: hHero, Persisted: true}},
		{name: "known hash with a differing query is refused", seed: known, query: qDroid, ext: pqExt(sha256Key, hHero),
			wantErr: &wantErr{status: http.StatusBadRequest, code: gqlerr.PersistedQueryHashMismatch, message: "Provided query does not match hash",
				ext: map[string]any{"providedHash": hHero, "computedHash": hDroid}}},
		{name: "known hash with its own query runs it", seed: known, query: qHero, ext: pqExt(sha256Key, hHero),
			want: Resolution{Query: qHero, Hash: hHero, Persisted: true}},
		{name: "known hash with a differing query runs the stored one with ValidateHash off", opts: persisted.Options{ValidateHash: new(false)},
			seed: known, query: qDroid, ext: pqExt(sha256Key, hHero),
			want: Resolution{Query: qHero, Hash: hHero, Persisted: true}},
		{name: "known hash over GET is never public with ValidateHash off", opts: persisted.Options{ValidateHash: new(false)},
			seed: known, isGet: true, ext: pqExt(sha256Key, hHero),
			want: Resolution{Query: qHero, Hash: hHero, Persisted: true, CacheControl: "private, max-age=60"}},
		{name: "known hash over GET carries the default Cache-Control", seed: known, isGet: true, ext: pqExt(sha256Key, hHero),
			want: Resolution{Query: qHero, Hash: hHero, Persisted: true, CacheControl: persisted.DefaultCacheControl}},
		{name: "known hash over GET carries a configured Cache-Control", opts: persisted.Options{CacheControl: "public, max-age=3600"},
			seed: known, isGet: true, ext: pqExt(sha256Key, hHero),
			want: Resolution{Query: qHero, Hash: hHero, Persisted: true, CacheControl: "public, max-age=3600"}},
		{name: "unknown fields such as urql's miss are ignored", query: qHero,
			ext:  map[string]any{"persistedQuery": map[string]any{"version": float64(1), "sha256Hash": hHero, "miss": true}},
			want: Resolution{Query: qHero, Hash: hHero, Persisted: true, Register: true}},
		{name: "version as json.Number", seed: known,
			ext:  map[string]any{"persistedQuery": map[string]any{"version": json.Number("1"), "sha256Hash": hHero}},
			want: Resolution{Query: qHero, Hash: hHero, Persisted: true}},
		{name: "version 2 is not supported", ext: map[string]any{"persistedQuery": map[string]any{"version": float64(2), "sha256Hash": hHero}},
			wantErr: &wantErr{status: http.StatusBadRequest, code: gqlerr.PersistedQueryVersionNotSupported,
				message: "Unsupported persisted query version: 2", ext: map[string]any{"version": float64(2)}}},
		{name: "version 0 is not supported", ext: map[string]any{"persistedQuery": map[string]any{"version": float64(0), "sha256Hash": hHero}},
			wantErr: &wantErr{status: http.StatusBadRequest, code: gqlerr.PersistedQueryVersionNotSupported,
				message: "Unsupported persisted query version: 0", ext: map[string]any{"version": float64(0)}}},
		{name: "a huge version prints briefly", ext: map[string]any{"persistedQuery": map[string]any{"version": 1e300, "sha256Hash": hHero}},
			wantErr: &wantErr{status: http.StatusBadRequest, code: gqlerr.PersistedQueryVersionNotSupported,
				message: "Unsupported persisted query version: 1e+300", ext: map[string]any{"version": 1e300}}},
		{name: "a fractional version", ext: map[string]any{"persistedQuery": map[string]any{"version": 1.5, "sha256Hash": hHero}},
			wantErr: &wantErr{status: http.StatusBadRequest, code: gqlerr.PersistedQueryVersionNotSupported,
				message: "Unsupported persisted query version: 1.5", ext: map[string]any{"version": 1.5}}},
		{name: "version as a string is a bad request", ext: map[string]any{"persistedQuery": map[string]any{"version": "1", "sha256Hash": hHero}},
			wantErr: badRequest("extensions.persistedQuery.version must be a number")},
		{name: "missing version is a bad request", ext: map[string]any{"persistedQuery": map[string]any{"sha256Hash": hHero}},
			wantErr: badRequest("extensions.persistedQuery.version is required")},
		{name: "persistedQuery as a string is a bad request", ext: map[string]any{"persistedQuery": hHero},
			wantErr: badRequest("extensions.persistedQuery must be an object")},
		{name: "persistedQuery as a list is a bad request", ext: map[string]any{"persistedQuery": []any{float64(1)}},
			wantErr: badRequest("extensions.persistedQuery must be an object")},
		{name: "missing hash is a bad request", ext: map[string]any{"persistedQuery": map[string]any{"version": float64(1)}},
			wantErr: badRequest("extensions.persistedQuery.sha256Hash is required")},
		{name: "hash as a number is a bad request", ext: map[string]any{"persistedQuery": map[string]any{"version": float64(1), "sha256Hash": float64(12)}},
			wantErr: badRequest("extensions.persistedQuery.sha256Hash must be a string")},
		{name: "non-hex hash is a bad request", query: qHero, ext: pqExt(sha256Key, "z"+hHero[1:]),
			wantErr: badRequest("extensions.persistedQuery.sha256Hash must be a sha256 hash: 64 hex digits")},
		{name: "short hash is a bad request", query: qHero, ext: pqExt(sha256Key, hHero[:63]),
			wantErr: badRequest("extensions.persistedQuery.sha256Hash must be a sha256 hash: 64 hex digits")},
		{name: "GET is refused with EnableGet off", opts: persisted.Options{EnableGet: new(false)}, seed: known, isGet: true, ext: pqExt(sha256Key, hHero),
			wantErr: &wantErr{status: http.StatusMethodNotAllowed, code: gqlerr.MethodNotAllowed,
				message: "GET requests are not enabled for persisted queries; use POST", allow: "POST"}},
		{name: "POST still works with EnableGet off", opts: persisted.Options{EnableGet: new(false)}, seed: known, ext: pqExt(sha256Key, hHero),
			want: Resolution{Query: qHero, Hash: hHero, Persisted: true}},
	}
	runResolveCases(t, cases)
}

func TestResolveSHA512(t *testing.T) {
	opts := persisted.Options{HashAlgorithm: persisted.SHA512}
	known := map[string]string{hHero512: qHero}
	cases := []resolveCase{
		{name: "known sha512Hash runs the stored query", opts: opts, seed: known, ext: pqExt(sha512Key, hHero512),
			want: Resolution{Query: qHero, Hash: hHero512, Persisted: true}},
		{name: "falls back to sha256Hash", opts: opts, seed: known, ext: pqExt(sha256Key, hHero512),
			want: Resolution{Query: qHero, Hash: hHero512, Persisted: true}},
		{name: "sha512Hash wins over sha256Hash", opts: opts, seed: known,
			ext:  map[string]any{"persistedQuery": map[string]any{"version": float64(1), "sha512Hash": hHero512, "sha256Hash": hDroid512}},
			want: Resolution{Query: qHero, Hash: hHero512, Persisted: true}},
		{name: "registers with a matching sha512", opts: opts, query: qDroid, ext: pqExt(sha512Key, hDroid512),
			want: Resolution{Query: qDroid, Hash: hDroid512, Persisted: true, Register: true}},
		{name: "mismatch computes sha512", opts: opts, query: qDroid, ext: pqExt(sha512Key, hHero512),
			wantErr: &wantErr{status: http.StatusBadRequest, code: gqlerr.PersistedQueryHashMismatch, message: "Provided query does not match hash",
				ext: map[string]any{"providedHash": hHero512, "computedHash": hDroid512}}},
		{name: "a sha256-length hash is malformed", opts: opts, query: qHero, ext: pqExt(sha512Key, hHero),
			wantErr: badRequest("extensions.persistedQuery.sha512Hash must be a sha512 hash: 128 hex digits")},
		{name: "a sha256-length fallback hash is malformed", opts: opts, query: qHero, ext: pqExt(sha256Key, hHero),
			wantErr: badRequest("extensions.persistedQuery.sha256Hash must be a sha512 hash: 128 hex digits")},
		{name: "missing hash names sha512Hash", opts: opts, ext: map[string]any{"persistedQuery": map[string]any{"version": float64(1)}},
			wantErr: badRequest("extensions.persistedQuery.sha512Hash is required")},
		{name: "sha256 mode does not read sha512Hash", seed: map[string]string{hHero: qHero}, ext: pqExt(sha512Key, hHero512),
			wantErr: badRequest("extensions.persistedQuery.sha256Hash is required")},
		{name: "safelist plain query hashed with sha512", opts: persisted.Options{Mode: persisted.Safelist, HashAlgorithm: persisted.SHA512}, seed: known, query: qHero,
			want: Resolution{Query: qHero, Hash: hHero512, Persisted: true}},
	}
	runResolveCases(t, cases)
}

func TestResolveSafelist(t *testing.T) {
	list := map[string]string{hHero: qHero, hDroid: qDroid}
	sl := persisted.Options{Mode: persisted.Safelist}
	notAllowed := func(hash string) *wantErr {
		return &wantErr{status: http.StatusForbidden, code: gqlerr.PersistedQueryNotAllowed, message: "Persisted query not in safelist",
			ext: map[string]any{"hash": hash}}
	}
	cases := []resolveCase{
		{name: "listed hash runs its query", opts: sl, seed: list, ext: pqExt(sha256Key, hHero),
			want: Resolution{Query: qHero, Hash: hHero, Persisted: true}},
		{name: "listed uppercase hash runs its query", opts: sl, seed: list, ext: pqExt(sha256Key, strings.ToUpper(hDroid)),
			want: Resolution{Query: qDroid, Hash: hDroid, Persisted: true}},
		{name: "listed hash over GET carries Cache-Control", opts: sl, seed: list, isGet: true, ext: pqExt(sha256Key, hHero),
			want: Resolution{Query: qHero, Hash: hHero, Persisted: true, CacheControl: persisted.DefaultCacheControl}},
		{name: "listed hash with a differing query is refused", opts: sl, seed: list, query: qUnlist, ext: pqExt(sha256Key, hHero),
			wantErr: &wantErr{status: http.StatusBadRequest, code: gqlerr.PersistedQueryHashMismatch, message: "Provided query does not match hash",
				ext: map[string]any{"providedHash": hHero, "computedHash": persisted.Hash(persisted.SHA256, qUnlist)}}},
		{name: "unlisted hash is not allowed", opts: sl, seed: list, ext: pqExt(sha256Key, hUnlist), wantErr: notAllowed(hUnlist)},
		{name: "unlisted hash with its query is not allowed and never registers", opts: sl, seed: list, query: qUnlist,
			ext: pqExt(sha256Key, hUnlist), wantErr: notAllowed(hUnlist)},
		{name: "listed plain query runs", opts: sl, seed: list, query: qHero,
			want: Resolution{Query: qHero, Hash: hHero, Persisted: true}},
		{name: "listed plain query over GET carries Cache-Control", opts: sl, seed: list, isGet: true, query: qHero,
			want: Resolution{Query: qHero, Hash: hHero, Persisted: true, CacheControl: persisted.DefaultCacheControl}},
		{name: "plain query must match the listed text exactly", opts: sl, seed: list, query: qHero + " ",
			wantErr: notAllowed(persisted.Hash(persisted.SHA256, qHero+" "))},
		{name: "unlisted plain query is not allowed", opts: sl, seed: list, query: qUnlist, wantErr: notAllowed(hUnlist)},
		{name: "RequireHash refuses a listed plain query", opts: persisted.Options{Mode: persisted.Safelist, RequireHash: true}, seed: list, query: qHero,
			wantErr: notAllowed(hHero)},
		{name: "RequireHash still runs listed hashes", opts: persisted.Options{Mode: persisted.Safelist, RequireHash: true}, seed: list, ext: pqExt(sha256Key, hHero),
			want: Resolution{Query: qHero, Hash: hHero, Persisted: true}},
		{name: "no query passes to the router", opts: sl, seed: list, want: Resolution{}},
		{name: "version 3 is not supported", opts: sl, seed: list,
			ext: map[string]any{"persistedQuery": map[string]any{"version": float64(3), "sha256Hash": hHero}},
			wantErr: &wantErr{status: http.StatusBadRequest, code: gqlerr.PersistedQueryVersionNotSupported,
				message: "Unsupported persisted query version: 3", ext: map[string]any{"version": float64(3)}}},
		{name: "malformed hash is a bad request", opts: sl, seed: list, ext: pqExt(sha256Key, "abc"),
			wantErr: badRequest("extensions.persistedQuery.sha256Hash must be a sha256 hash: 64 hex digits")},
		{name: "GET refused with EnableGet off", opts: persisted.Options{Mode: persisted.Safelist, EnableGet: new(false)}, seed: list, isGet: true, query: qHero,
			wantErr: &wantErr{status: http.StatusMethodNotAllowed, code: gqlerr.MethodNotAllowed,
				message: "GET requests are not enabled for persisted queries; use POST", allow: "POST"}},
	}
	runResolveCases(t, cases)
}

func TestResolveStoreFailure(t *testing.T) {
	unavailable := &wantErr{status: http.StatusServiceUnavailable, code: gqlerr.PersistedQueryStoreUnavailable, message: "Persisted query store unavailable"}
	tests := []struct {
		name    string
		mode    persisted.Mode
		query   string
		ext     map[string]any
		want    Resolution
		wantErr *wantErr
		wantLog string
	}{
		{name: "APQ hash only is a miss", mode: persisted.APQ, ext: pqExt(sha256Key, hHero),
			wantErr: &wantErr{status: http.StatusOK, code: gqlerr.PersistedQueryNotFound, message: "PersistedQueryNotFound", cacheControl: NotFoundCacheControl},
			wantLog: "level=WARN msg=\"persisted: persisted query lookup failed; treating it as a miss\""},
		{name: "APQ hash and query still runs and asks to register", mode: persisted.APQ, query: qHero, ext: pqExt(sha256Key, hHero),
			want:    Resolution{Query: qHero, Hash: hHero, Persisted: true, Register: true},
			wantLog: "treating it as a miss"},
		{name: "safelist hash fails closed", mode: persisted.Safelist, ext: pqExt(sha256Key, hHero), wantErr: unavailable,
			wantLog: "level=ERROR msg=\"persisted: safelist store unavailable; refusing the request\""},
		{name: "safelist plain query fails closed", mode: persisted.Safelist, query: qHero, wantErr: unavailable,
			wantLog: "refusing the request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logger, logs := newTestLogger()
			store := &failingStore{err: errStoreDown}
			p, err := New(persisted.Options{Mode: tt.mode, Store: store, Logger: logger})
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.Resolve(context.Background(), false, tt.query, tt.ext)
			checkResolve(t, got, err, tt.want, tt.wantErr)
			if !strings.Contains(logs.String(), tt.wantLog) || !strings.Contains(logs.String(), "connection refused") {
				t.Errorf("log = %q, want it to contain %q and the store error", logs.String(), tt.wantLog)
			}
			if tt.wantErr != nil && tt.wantErr.code == gqlerr.PersistedQueryStoreUnavailable {
				var su *StoreUnavailableError
				if !errors.As(err, &su) || !errors.Is(err, errStoreDown) {
					t.Errorf("error %v does not unwrap to StoreUnavailableError and the store error", err)
				}
				if strings.Contains(err.(*Error).Err.Message, "connection refused") {
					t.Errorf("client message %q leaks the store error", err.(*Error).Err.Message)
				}
			}
		})
	}
}

func TestRegister(t *testing.T) {
	t.Run("APQ stores the query", func(t *testing.T) {
		s, _ := persisted.NewMemoryStore(4)
		p, _ := New(persisted.Options{Store: s})
		p.Register(context.Background(), "", hHero, qHero)
		res, err := p.Resolve(context.Background(), false, "", pqExt(sha256Key, hHero))
		if err != nil || res.Query != qHero {
			t.Fatalf("after Register, Resolve = %+v, %v; want the stored query", res, err)
		}
	})
	t.Run("APQ logs a failing store and goes on", func(t *testing.T) {
		logger, logs := newTestLogger()
		s := &failingStore{err: errStoreDown}
		p, _ := New(persisted.Options{Store: s, Logger: logger})
		p.Register(context.Background(), "", hHero, qHero)
		if s.sets != 1 || !strings.Contains(logs.String(), "it was not registered") || !strings.Contains(logs.String(), hHero) {
			t.Errorf("sets = %d, log = %q; want one Set and a warning naming the hash", s.sets, logs.String())
		}
	})
	t.Run("safelist never writes", func(t *testing.T) {
		s := &failingStore{err: errStoreDown}
		p, _ := New(persisted.Options{Mode: persisted.Safelist, Store: s})
		p.Register(context.Background(), "", hHero, qHero)
		if s.sets != 0 {
			t.Errorf("Set called %d times in safelist mode, want 0", s.sets)
		}
	})
}

func TestEntries(t *testing.T) {
	list, _ := persisted.NewSafelistStore(map[string]string{hHero: qHero})
	tests := []struct {
		name   string
		opts   persisted.Options
		wantOK bool
	}{
		{"safelist store lists its entries", persisted.Options{Mode: persisted.Safelist, Store: list}, true},
		{"APQ lists nothing", persisted.Options{}, false},
		{"safelist over a store that cannot list", persisted.Options{Mode: persisted.Safelist, Store: &failingStore{}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := p.Entries(context.Background())
			if ok != tt.wantOK {
				t.Fatalf("Entries ok = %v, want %v", ok, tt.wantOK)
			}
			if ok && !reflect.DeepEqual(got, map[string]string{hHero: qHero}) {
				t.Errorf("Entries = %v", got)
			}
		})
	}
}

func TestNew(t *testing.T) {
	list256, _ := persisted.NewSafelistStore(map[string]string{hHero: qHero})
	tests := []struct {
		name    string
		opts    persisted.Options
		wantErr string // empty: New must succeed
	}{
		{"zero value is APQ with defaults", persisted.Options{}, ""},
		{"mode safelist with a store", persisted.Options{Mode: persisted.Safelist, Store: list256}, ""},
		{"unknown mode", persisted.Options{Mode: "cache"}, `persisted: Mode "cache" is not "apq" or "safelist"`},
		{"unknown algorithm", persisted.Options{HashAlgorithm: "md5"}, `persisted: HashAlgorithm "md5" is not "sha256" or "sha512"`},
		{"safelist without a store", persisted.Options{Mode: persisted.Safelist}, "persisted: safelist mode needs a Store"},
		{"APQ over a read-only safelist", persisted.Options{Store: list256}, "persisted: a SafelistStore is read-only"},
		{"safelist hashes of another algorithm", persisted.Options{Mode: persisted.Safelist, Store: list256, HashAlgorithm: persisted.SHA512},
			"persisted: the safelist holds sha256 hashes but HashAlgorithm is sha512"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(tt.opts)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				o := p.Options()
				if o.Store == nil || !*o.EnableGet || !*o.ValidateHash || o.HashAlgorithm != persisted.SHA256 || o.CacheControl != persisted.DefaultCacheControl {
					t.Errorf("defaults not filled in: %+v", o)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("New error = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
	t.Run("every bad field is reported at once", func(t *testing.T) {
		_, err := New(persisted.Options{Mode: "x", HashAlgorithm: "y"})
		if err == nil || !strings.Contains(err.Error(), "Mode") || !strings.Contains(err.Error(), "HashAlgorithm") {
			t.Fatalf("New error = %v, want both fields named", err)
		}
	})
}
