package graft

import (
	"strings"
	"testing"
	"time"

	"github.com/graftgql/graft/internal/envconf"
	"github.com/graftgql/graft/limits"
)

func lookupFrom(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestConfigFromEnvDefaults(t *testing.T) {
	cfg, err := ConfigFromLookup(lookupFrom(nil))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Path != "/graphql" || cfg.GraphiQL != nil || cfg.Complexity != (limits.Config{}) ||
		cfg.MaxBodyBytes != 1<<20 || cfg.MaxTokens != 15000 || cfg.DocumentCacheSize != 1000 ||
		cfg.Timeout != 30*time.Second || cfg.DisableIntrospection || cfg.CSRF != nil {
		t.Fatalf("unexpected defaults: %+v", cfg)
	}
}

func TestConfigFromEnvValues(t *testing.T) {
	cfg, err := ConfigFromLookup(lookupFrom(map[string]string{
		"GRAPHQL_PATH":                "/api/graphql",
		"GRAPHIQL_ENABLED":            "YES",
		"GRAPHIQL_PATH":               "/ide",
		"GRAPHQL_MAX_DEPTH":           "10",
		"GRAPHQL_MAX_COMPLEXITY":      "200",
		"GRAPHQL_MAX_FIELDS":          "300",
		"GRAPHQL_MAX_ALIASES":         "5",
		"GRAPHQL_MAX_DIRECTIVES":      "7",
		"GRAPHQL_MAX_BODY_BYTES":      "2048",
		"GRAPHQL_MAX_TOKENS":          "500",
		"GRAPHQL_INTROSPECTION":       "off",
		"GRAPHQL_DOCUMENT_CACHE_SIZE": "10",
		"GRAPHQL_TIMEOUT":             "5s",
		"GRAPHQL_MASK_ERRORS":         "1",
		"GRAPHQL_SPEC_STATUS_CODES":   "true",
		"GRAPHQL_CSRF_PREVENTION":     "on",
		"GRAPHQL_REPORT_COMPLEXITY":   "true",
		"GRAPHQL_MAX_RESPONSE_BYTES":  "4096",
		"GRAPHIQL_ASSET_BASE_URL":     "/assets",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := limits.Config{MaxDepth: 10, MaxComplexity: 200, MaxFields: 300, MaxAliases: 5, MaxDirectives: 7}
	if cfg.Path != "/api/graphql" || cfg.Complexity != want || cfg.MaxBodyBytes != 2048 || cfg.MaxTokens != 500 ||
		!cfg.DisableIntrospection || cfg.DocumentCacheSize != 10 || cfg.Timeout != 5*time.Second ||
		!cfg.MaskErrors || cfg.StatusCodes != StatusCodesLegacy || cfg.CSRF == nil || !cfg.ReportComplexity || cfg.MaxResponseBytes != 4096 {
		t.Fatalf("got %+v", cfg)
	}
	if cfg.GraphiQL == nil || cfg.GraphiQL.Path != "/ide" || cfg.GraphiQL.Endpoint != "/api/graphql" || cfg.GraphiQL.AssetBaseURL != "/assets" {
		t.Fatalf("GraphiQL = %+v", cfg.GraphiQL)
	}
}

func TestConfigFromEnvGraphiQLEndpoint(t *testing.T) {
	cfg, err := ConfigFromLookup(lookupFrom(map[string]string{"GRAPHIQL_ENABLED": "true", "GRAPHIQL_ENDPOINT": "https://api.example.com/graphql"}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.GraphiQL.Path != "/graphiql" || cfg.GraphiQL.Endpoint != "https://api.example.com/graphql" {
		t.Fatalf("GraphiQL = %+v", cfg.GraphiQL)
	}
}

func TestConfigFromEnvBadValues(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want []string
	}{
		{map[string]string{"GRAPHQL_MAX_DEPTH": "abc"}, []string{`GRAPHQL_MAX_DEPTH="abc"`}},
		{map[string]string{"GRAPHQL_MAX_DEPTH": "-1"}, []string{`GRAPHQL_MAX_DEPTH="-1"`}},
		{map[string]string{"GRAPHIQL_ENABLED": "maybe"}, []string{`GRAPHIQL_ENABLED="maybe"`}},
		{map[string]string{"GRAPHQL_TIMEOUT": "-3s"}, []string{`GRAPHQL_TIMEOUT`}},
		{map[string]string{"GRAPHQL_TIMEOUT": "soon"}, []string{`GRAPHQL_TIMEOUT="soon"`}},
		{map[string]string{"GRAPHQL_MAX_BODY_BYTES": "1MB"}, []string{`GRAPHQL_MAX_BODY_BYTES="1MB"`}},
		{map[string]string{"GRAPHQL_INTROSPECTION": "nope"}, []string{`GRAPHQL_INTROSPECTION="nope"`}},
		{map[string]string{"GRAPHQL_PATH": "graphql"}, []string{`Path "graphql" must start with /`}},
		{
			map[string]string{"GRAPHQL_MAX_DEPTH": "abc", "GRAPHQL_MAX_COMPLEXITY": "1.5", "GRAPHQL_MAX_FIELDS": "-2", "GRAPHQL_MAX_ALIASES": "x", "GRAPHIQL_ENABLED": "maybe"},
			[]string{`GRAPHQL_MAX_DEPTH="abc"`, `GRAPHQL_MAX_COMPLEXITY="1.5"`, `GRAPHQL_MAX_FIELDS="-2"`, `GRAPHQL_MAX_ALIASES="x"`, `GRAPHIQL_ENABLED="maybe"`},
		},
	}
	for _, tc := range tests {
		_, err := ConfigFromLookup(lookupFrom(tc.env))
		if err == nil {
			t.Errorf("%v: no error", tc.env)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error %q does not name %q", tc.env, err, w)
			}
		}
	}
}

func TestWithEnvKeepsApplicationDefaults(t *testing.T) {
	app := Config{Complexity: limits.Config{MaxDepth: 10, MaxComplexity: 500}, MaxTokens: 2000, CSRF: &CSRFConfig{}}
	cfg, err := app.WithEnv(lookupFrom(map[string]string{"GRAPHQL_MAX_COMPLEXITY": "0", "GRAPHQL_MAX_ALIASES": "7", "GRAPHQL_CSRF_PREVENTION": ""}))
	if err != nil {
		t.Fatal(err)
	}
	want := limits.Config{MaxDepth: 10, MaxComplexity: 0, MaxAliases: 7}
	if cfg.Complexity != want {
		t.Errorf("Complexity = %+v, want %+v (unset keeps the application's value, an explicit 0 switches the limit off)", cfg.Complexity, want)
	}
	if cfg.MaxTokens != 2000 || cfg.CSRF == nil {
		t.Errorf("MaxTokens = %d, CSRF = %v: unset and empty variables must keep the application's values", cfg.MaxTokens, cfg.CSRF)
	}
	off, err := app.WithEnv(lookupFrom(map[string]string{"GRAPHQL_CSRF_PREVENTION": "off"}))
	if err != nil || off.CSRF != nil {
		t.Errorf("GRAPHQL_CSRF_PREVENTION=off: CSRF = %v, err %v", off.CSRF, err)
	}
}

func TestServeOptionsFromEnv(t *testing.T) {
	t.Setenv("PORT", "8081")
	t.Setenv("HOST", "127.0.0.1")
	t.Setenv("SHUTDOWN_GRACE", "3s")
	t.Setenv("SHUTDOWN_DELAY", "5s")
	o, err := ServeOptionsFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if o.Port != 8081 || o.Host != "127.0.0.1" || o.ShutdownGrace != 3*time.Second || o.ShutdownDelay != 5*time.Second {
		t.Errorf("got %+v", o)
	}
	kept, err := ServeOptions{Port: 9000, Host: "::1"}.WithEnv(lookupFrom(map[string]string{"SHUTDOWN_GRACE": "1m"}))
	if err != nil || kept.Port != 9000 || kept.Host != "::1" || kept.ShutdownGrace != time.Minute {
		t.Errorf("got %+v, %v", kept, err)
	}
}

func TestServeOptionsFromEnvBadValues(t *testing.T) {
	_, err := ServeOptions{}.WithEnv(lookupFrom(map[string]string{"PORT": "70000", "SHUTDOWN_GRACE": "-1s", "SHUTDOWN_DELAY": "soon"}))
	if err == nil {
		t.Fatal("no error")
	}
	for _, w := range []string{`PORT="70000"`, `SHUTDOWN_GRACE="-1s"`, `SHUTDOWN_DELAY="soon"`} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not name %q", err, w)
		}
	}
}

// TestConfigFromEnvReadsEveryDeclaredVariable keeps the declaration and
// the parsing in step: every declared variable is read, and changes Config.
func TestConfigFromEnvReadsEveryDeclaredVariable(t *testing.T) {
	declared := map[string]bool{}
	for _, v := range envconf.Describe(envconf.Router{}) {
		declared[v.Name] = true
	}
	read := map[string]bool{}
	_, _ = ConfigFromLookup(func(name string) (string, bool) {
		read[name] = true
		if !declared[name] {
			t.Errorf("%s is read but not declared", name)
		}
		return "", false
	})
	if len(read) != len(declared) {
		t.Errorf("%d variables declared, %d read", len(declared), len(read))
	}
}

func TestConfigFromEnvStatusCodes(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want StatusCodes
	}{
		{map[string]string{}, StatusCodesApollo},
		{map[string]string{"GRAPHQL_STATUS_CODES": "spec"}, StatusCodesSpec},
		{map[string]string{"GRAPHQL_STATUS_CODES": "legacy"}, StatusCodesLegacy},
		{map[string]string{"GRAPHQL_SPEC_STATUS_CODES": "true"}, StatusCodesLegacy},
		{map[string]string{"GRAPHQL_SPEC_STATUS_CODES": "true", "GRAPHQL_STATUS_CODES": "spec"}, StatusCodesSpec},
	} {
		cfg, err := ConfigFromLookup(lookupFrom(tc.env))
		if err != nil || cfg.StatusCodes != tc.want {
			t.Errorf("%v: %q, %v; want %q", tc.env, cfg.StatusCodes, err, tc.want)
		}
	}
	_, err := ConfigFromLookup(lookupFrom(map[string]string{"GRAPHQL_STATUS_CODES": "strict"}))
	if err == nil || !strings.Contains(err.Error(), "GRAPHQL_STATUS_CODES") {
		t.Errorf("bad policy: %v", err)
	}
}
