package pqstate

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/gqlerr"

	"github.com/graftgql/graft/persisted"
)

func TestErrorsAs(t *testing.T) {
	safelist, _ := persisted.NewSafelistStore(map[string]string{hHero: qHero})
	apq, _ := New(persisted.Options{})
	sl, _ := New(persisted.Options{Mode: persisted.Safelist, Store: safelist})
	noGet, _ := New(persisted.Options{EnableGet: new(false)})
	ctx := context.Background()
	resolve := func(p *PersistedQueries, isGet bool, q string, ext map[string]any) error {
		_, err := p.Resolve(ctx, isGet, q, ext)
		return err
	}
	tests := []struct {
		name  string
		err   error
		check func(error) bool
	}{
		{"not found", resolve(apq, false, "", pqExt(sha256Key, hDroid)), func(err error) bool {
			var e *PersistedQueryNotFoundError
			return errors.As(err, &e) && e.Hash == hDroid
		}},
		{"not allowed", resolve(sl, false, "", pqExt(sha256Key, hDroid)), func(err error) bool {
			var e *PersistedQueryNotAllowedError
			return errors.As(err, &e) && e.Hash == hDroid
		}},
		{"hash mismatch", resolve(apq, false, qDroid, pqExt(sha256Key, hHero)), func(err error) bool {
			var e *PersistedQueryHashMismatchError
			return errors.As(err, &e) && e.ProvidedHash == hHero && e.ComputedHash == hDroid
		}},
		{"version", resolve(apq, false, "", map[string]any{"persistedQuery": map[string]any{"version": 2.5, "sha256Hash": hHero}}), func(err error) bool {
			var e *PersistedQueryVersionError
			return errors.As(err, &e) && e.Version == 2.5 && err.Error() == "Unsupported persisted query version: 2.5"
		}},
		{"invalid extension", resolve(apq, false, "", map[string]any{"persistedQuery": "x"}), func(err error) bool {
			var e *InvalidExtensionError
			return errors.As(err, &e)
		}},
		{"GET not enabled", resolve(noGet, true, qHero, nil), func(err error) bool {
			var e *GetNotEnabledError
			return errors.As(err, &e)
		}},
		{"not supported", ErrNotSupported(), func(err error) bool {
			var e *PersistedQueryNotSupportedError
			return errors.As(err, &e)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !tt.check(tt.err) {
				t.Errorf("errors.As did not find the typed error in %v (%T)", tt.err, tt.err)
			}
		})
	}
}

func TestErrNotSupported(t *testing.T) {
	e := ErrNotSupported()
	if e.Status != http.StatusOK {
		t.Errorf("Status = %d, want 200", e.Status)
	}
	b, err := json.Marshal(e.Err)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"message":"PersistedQueryNotSupported","extensions":{"code":"PERSISTED_QUERY_NOT_SUPPORTED"}}`
	if string(b) != want {
		t.Errorf("JSON = %s, want %s", b, want)
	}
	e.Err.Extensions["code"] = "CHANGED"
	if ErrNotSupported().Err.Extensions["code"] != gqlerr.PersistedQueryNotSupported {
		t.Error("ErrNotSupported shares its error between calls")
	}
}

func TestRequested(t *testing.T) {
	tests := []struct {
		ext  map[string]any
		want bool
	}{
		{nil, false},
		{map[string]any{}, false},
		{map[string]any{"persistedQuery": nil}, false},
		{map[string]any{"persistedQuery": map[string]any{}}, true},
		{map[string]any{"persistedQuery": "x"}, true},
	}
	for _, tt := range tests {
		if got := Requested(tt.ext); got != tt.want {
			t.Errorf("Requested(%v) = %v, want %v", tt.ext, got, tt.want)
		}
	}
}

func TestErrorJSONShape(t *testing.T) {
	p, _ := New(persisted.Options{})
	_, err := p.Resolve(context.Background(), false, qDroid, pqExt(sha256Key, hHero))
	b, _ := json.Marshal(err.(*Error).Err)
	for _, want := range []string{`"message":"Provided query does not match hash"`, `"code":"PERSISTED_QUERY_HASH_MISMATCH"`,
		`"providedHash":"` + hHero + `"`, `"computedHash":"` + hDroid + `"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON %s lacks %s", b, want)
		}
	}
}
