package persisted

import (
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/envconf"
)

func lookupFrom(env map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	}
}

func TestConfigFromLookup(t *testing.T) {
	manifest := writeFile(t, "m.json", relayManifest(map[string]string{hHero: qHero}))
	manifest512 := writeFile(t, "m512.json", relayManifest(map[string]string{hHero512: qHero}))
	tests := []struct {
		name  string
		env   map[string]string
		check func(t *testing.T, o Options)
	}{
		{"nothing set leaves Mode empty", map[string]string{}, func(t *testing.T, o Options) {
			if o.Mode != "" || o.Store != nil || o.EnableGet != nil || o.ValidateHash != nil {
				t.Errorf("options = %+v, want zero", o)
			}
		}},
		{"empty values count as unset", map[string]string{envMode: "", envEnableGet: "", envStoreSize: ""}, func(t *testing.T, o Options) {
			if o.Mode != "" || o.EnableGet != nil || o.Store != nil {
				t.Errorf("options = %+v, want zero", o)
			}
		}},
		{"mode in any case", map[string]string{envMode: "SafeList"}, func(t *testing.T, o Options) {
			if o.Mode != Safelist {
				t.Errorf("Mode = %q", o.Mode)
			}
		}},
		{"apq", map[string]string{envMode: "APQ"}, func(t *testing.T, o Options) {
			if o.Mode != APQ {
				t.Errorf("Mode = %q", o.Mode)
			}
		}},
		{"booleans", map[string]string{envEnableGet: "Off", envValidateHash: "YES"}, func(t *testing.T, o Options) {
			if o.EnableGet == nil || *o.EnableGet || o.ValidateHash == nil || !*o.ValidateHash {
				t.Errorf("EnableGet = %v, ValidateHash = %v", o.EnableGet, o.ValidateHash)
			}
		}},
		{"numeric booleans", map[string]string{envEnableGet: "1", envValidateHash: "0"}, func(t *testing.T, o Options) {
			if !*o.EnableGet || *o.ValidateHash {
				t.Errorf("EnableGet = %v, ValidateHash = %v", *o.EnableGet, *o.ValidateHash)
			}
		}},
		{"algorithm and cache control", map[string]string{envHashAlgorithm: "SHA512", envCacheControl: "public, max-age=600"}, func(t *testing.T, o Options) {
			if o.HashAlgorithm != SHA512 || o.CacheControl != "public, max-age=600" {
				t.Errorf("HashAlgorithm = %q, CacheControl = %q", o.HashAlgorithm, o.CacheControl)
			}
		}},
		{"store size", map[string]string{envStoreSize: "50"}, func(t *testing.T, o Options) {
			if _, ok := o.Store.(*MemoryStore); !ok {
				t.Errorf("Store = %T, want *MemoryStore", o.Store)
			}
		}},
		{"manifest implies safelist", map[string]string{envManifest: manifest}, func(t *testing.T, o Options) {
			s, ok := o.Store.(*SafelistStore)
			if o.Mode != Safelist || !ok || s.Len() != 1 {
				t.Errorf("Mode = %q, Store = %T", o.Mode, o.Store)
			}
		}},
		{"manifest with explicit safelist mode", map[string]string{envManifest: manifest512, envMode: "safelist", envHashAlgorithm: "sha512"}, func(t *testing.T, o Options) {
			s, ok := o.Store.(*SafelistStore)
			if o.Mode != Safelist || !ok || s.Algorithm() != SHA512 {
				t.Errorf("Mode = %q, Store = %T", o.Mode, o.Store)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := ConfigFromLookup(lookupFrom(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, o)
		})
	}
}

func TestConfigFromLookupErrors(t *testing.T) {
	manifest := writeFile(t, "m.json", relayManifest(map[string]string{hHero: qHero}))
	badManifest := writeFile(t, "bad.json", relayManifest(map[string]string{hHero: qDroid}))
	manifest512 := writeFile(t, "m512.json", relayManifest(map[string]string{hHero512: qHero}))
	tests := []struct {
		name string
		env  map[string]string
		want []string // each must appear in the error
	}{
		{"bad mode", map[string]string{envMode: "cache"}, []string{`persisted: PERSISTED_QUERIES_MODE="cache": want "apq" or "safelist"`}},
		{"bad boolean", map[string]string{envEnableGet: "maybe"}, []string{`PERSISTED_QUERIES_ENABLE_GET="maybe": must be one of true/false`}},
		{"bad algorithm", map[string]string{envHashAlgorithm: "md5"}, []string{`PERSISTED_QUERIES_HASH_ALGORITHM="md5"`}},
		{"bad size", map[string]string{envStoreSize: "0"}, []string{`PERSISTED_QUERIES_STORE_SIZE="0": want a positive integer`}},
		{"size not a number", map[string]string{envStoreSize: "ten"}, []string{`PERSISTED_QUERIES_STORE_SIZE="ten"`}},
		{"manifest with apq mode", map[string]string{envMode: "apq", envManifest: manifest},
			[]string{`PERSISTED_QUERIES_MANIFEST="` + manifest + `": a manifest is a safelist, but PERSISTED_QUERIES_MODE is apq`}},
		{"manifest with a store size", map[string]string{envManifest: manifest, envStoreSize: "10"}, []string{"PERSISTED_QUERIES_STORE_SIZE=\"10\""}},
		{"size in safelist mode", map[string]string{envMode: "safelist", envStoreSize: "10"}, []string{"not safelist mode"}},
		{"manifest of sha512 hashes with the default algorithm", map[string]string{envManifest: manifest512},
			[]string{"the manifest holds sha512 hashes but PERSISTED_QUERIES_HASH_ALGORITHM is sha256"}},
		{"manifest that does not load", map[string]string{envManifest: badManifest},
			[]string{`PERSISTED_QUERIES_MANIFEST="` + badManifest + `": persisted: load manifest`, "id does not match the sha256 of its body"}},
		{"every bad variable at once", map[string]string{envMode: "x", envEnableGet: "y", envValidateHash: "z", envHashAlgorithm: "w"},
			[]string{envMode + `="x"`, envEnableGet + `="y"`, envValidateHash + `="z"`, envHashAlgorithm + `="w"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ConfigFromLookup(lookupFrom(tt.env))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestConfigFromEnv(t *testing.T) {
	t.Setenv(envMode, "safelist")
	t.Setenv(envValidateHash, "false")
	o, err := ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if o.Mode != Safelist || o.ValidateHash == nil || *o.ValidateHash {
		t.Errorf("options = %+v", o)
	}
}

func TestEnvNamesAreDeclared(t *testing.T) {
	declared := map[string]bool{}
	for _, v := range envconf.Describe(envconf.Persisted{}) {
		declared[v.Name] = true
	}
	for _, name := range []string{envMode, envEnableGet, envValidateHash, envHashAlgorithm, envManifest, envCacheControl, envStoreSize, envStoreBytes, envMaxQueryBytes, envRegistrationsPerMinute} {
		if !declared[name] {
			t.Errorf("%s is not declared in envconf.Persisted", name)
		}
	}
	if len(declared) != 10 {
		t.Errorf("envconf.Persisted declares %d variables, persisted reads 10", len(declared))
	}
}
