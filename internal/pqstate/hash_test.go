package pqstate

import (
	"testing"

	"github.com/graftgql/graft/persisted"
)

func TestNormalizeHash(t *testing.T) {
	upper := "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855"
	tests := []struct {
		name, alg, in, want string
		ok                  bool
	}{
		{"lowercase sha256", persisted.SHA256, hHero, hHero, true},
		{"uppercase is lowered", persisted.SHA256, upper, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", true},
		{"sha512 length", persisted.SHA512, hHero512, hHero512, true},
		{"sha512 hash in sha256 mode", persisted.SHA256, hHero512, "", false},
		{"sha256 hash in sha512 mode", persisted.SHA512, hHero, "", false},
		{"not hex", persisted.SHA256, "g" + hHero[1:], "", false},
		{"empty", persisted.SHA256, "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := normalizeHash(tt.alg, tt.in)
			if got != tt.want || ok != tt.ok {
				t.Errorf("normalizeHash(%q, %q) = %q, %v; want %q, %v", tt.alg, tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestNormalizeHashEveryByte(t *testing.T) {
	for c := 0; c < 256; c++ {
		h := hHero[:10] + string([]byte{byte(c)}) + hHero[11:]
		got, ok := normalizeHash(persisted.SHA256, h)
		switch {
		case '0' <= c && c <= '9', 'a' <= c && c <= 'f':
			if !ok || got != h {
				t.Errorf("byte %#x: %q, %v; want the hash unchanged", c, got, ok)
			}
		case 'A' <= c && c <= 'F':
			if want := hHero[:10] + string([]byte{byte(c) + 'a' - 'A'}) + hHero[11:]; !ok || got != want {
				t.Errorf("byte %#x: %q, %v; want %q", c, got, ok, want)
			}
		default:
			if ok {
				t.Errorf("byte %#x: accepted", c)
			}
		}
	}
}
