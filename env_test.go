package graft

import (
	"strings"
	"testing"
	"time"

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
		!cfg.MaskErrors || !cfg.SpecStatusCodes || cfg.CSRF == nil || !cfg.ReportComplexity || cfg.MaxResponseBytes != 4096 {
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

func TestEnvVarsDocumentsEverySpecVariable(t *testing.T) {
	documented := map[string]bool{}
	for _, v := range EnvVars {
		documented[v.Name] = true
	}
	seen := 0
	cfg, _ := ConfigFromLookup(func(name string) (string, bool) {
		seen++
		if !documented[name] {
			t.Errorf("%s is read but not listed in EnvVars", name)
		}
		return "", false
	})
	_ = cfg
	if seen != len(EnvVars) {
		t.Errorf("EnvVars lists %d variables, ConfigFromEnv reads %d", len(EnvVars), seen)
	}
}
