package persisted

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestNewSafelistStore(t *testing.T) {
	tests := []struct {
		name    string
		entries map[string]string
		wantAlg string
		wantErr string
	}{
		{"lowercase sha256 keys", map[string]string{hHero: qHero, hDroid: qDroid}, SHA256, ""},
		{"uppercase keys are stored lowercase", map[string]string{strings.ToUpper(hHero): qHero}, SHA256, ""},
		{"sha512 keys", map[string]string{hHero512: qHero}, SHA512, ""},
		{"empty list", map[string]string{}, "", ""},
		{"not hex", map[string]string{"x" + hHero[1:]: qHero}, "", "is not a sha256 or sha512 hex hash"},
		{"wrong length", map[string]string{"abcd": qHero}, "", `key "abcd" is not a sha256 or sha512 hex hash`},
		{"mixed algorithms", map[string]string{hHero: qHero, hDroid512: qDroid}, "", "hash but other keys are"},
		{"same key in two cases with different queries", map[string]string{hHero: qHero, strings.ToUpper(hHero): qDroid}, "", "appears twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewSafelistStore(tt.entries)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Algorithm() != tt.wantAlg || s.Len() != len(tt.entries) {
				t.Errorf("Algorithm = %q, Len = %d; want %q, %d", s.Algorithm(), s.Len(), tt.wantAlg, len(tt.entries))
			}
			for k, q := range tt.entries {
				got, ok, err := s.Get(context.Background(), strings.ToLower(k))
				if !ok || err != nil || got != q {
					t.Errorf("Get(%q) = %q, %v, %v; want %q", strings.ToLower(k), got, ok, err, q)
				}
			}
		})
	}
}

func TestSafelistStoreReadOnly(t *testing.T) {
	s, _ := NewSafelistStore(map[string]string{hHero: qHero})
	if err := s.Set(context.Background(), hDroid, qDroid); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Set error = %v, want ErrReadOnly", err)
	}
	if _, ok, _ := s.Get(context.Background(), hDroid); ok {
		t.Error("Set changed a read-only store")
	}
	e := s.Entries()
	e[hDroid] = qDroid
	if s.Len() != 1 {
		t.Error("Entries returned the store's own map")
	}
}
