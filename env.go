package graft

import (
	"fmt"
	"time"

	"github.com/graftgql/graft/limits"

	"github.com/graftgql/graft/internal/envconf"
)

// envSpec lists the environment variables ConfigFromEnv reads.
type envSpec struct {
	Path                 string        `env:"GRAPHQL_PATH"`
	GraphiQLEnabled      *envconf.Bool `env:"GRAPHIQL_ENABLED"`
	GraphiQLPath         string        `env:"GRAPHIQL_PATH"`
	GraphiQLEndpoint     string        `env:"GRAPHIQL_ENDPOINT"`
	GraphiQLAssetBaseURL string        `env:"GRAPHIQL_ASSET_BASE_URL"`
	GraphiQLFrameAnc     string        `env:"GRAPHIQL_FRAME_ANCESTORS"`
	MaxDepth             envconf.Limit `env:"GRAPHQL_MAX_DEPTH"`
	MaxComplexity        envconf.Limit `env:"GRAPHQL_MAX_COMPLEXITY"`
	MaxFields            envconf.Limit `env:"GRAPHQL_MAX_FIELDS"`
	MaxAliases           envconf.Limit `env:"GRAPHQL_MAX_ALIASES"`
	MaxDirectives        envconf.Limit `env:"GRAPHQL_MAX_DIRECTIVES"`
	ReportComplexity     envconf.Bool  `env:"GRAPHQL_REPORT_COMPLEXITY"`
	MaxBodyBytes         envconf.Limit `env:"GRAPHQL_MAX_BODY_BYTES"`
	MaxTokens            envconf.Limit `env:"GRAPHQL_MAX_TOKENS"`
	MaxResponseBytes     envconf.Limit `env:"GRAPHQL_MAX_RESPONSE_BYTES"`
	Introspection        *envconf.Bool `env:"GRAPHQL_INTROSPECTION"`
	DocumentCacheSize    envconf.Limit `env:"GRAPHQL_DOCUMENT_CACHE_SIZE"`
	DocumentCacheBytes   envconf.Limit `env:"GRAPHQL_DOCUMENT_CACHE_BYTES"`
	MaxInFlight          envconf.Limit `env:"GRAPHQL_MAX_IN_FLIGHT"`
	MaxBufferedBytes     envconf.Limit `env:"GRAPHQL_MAX_BUFFERED_BYTES"`
	Timeout              time.Duration `env:"GRAPHQL_TIMEOUT"`
	MaskErrors           envconf.Bool  `env:"GRAPHQL_MASK_ERRORS"`
	SpecStatusCodes      envconf.Bool  `env:"GRAPHQL_SPEC_STATUS_CODES"`
	CSRF                 *envconf.Bool `env:"GRAPHQL_CSRF_PREVENTION"`
}

// EnvVar documents one environment variable read by ConfigFromEnv.
type EnvVar struct {
	Name, Default, Description string
}

// EnvVars lists the variables ConfigFromEnv reads, for --help texts and
// documentation.
var EnvVars = []EnvVar{
	{"GRAPHQL_PATH", DefaultPath, "path of the GraphQL endpoint"},
	{"GRAPHIQL_ENABLED", "false", "serve the GraphiQL IDE"},
	{"GRAPHIQL_PATH", DefaultGraphiQLPath, "path of the GraphiQL page"},
	{"GRAPHIQL_ENDPOINT", "GRAPHQL_PATH", "endpoint the GraphiQL page queries"},
	{"GRAPHIQL_ASSET_BASE_URL", "(public CDN)", "base URL of self-hosted GraphiQL assets"},
	{"GRAPHIQL_FRAME_ANCESTORS", "'none'", "Content-Security-Policy frame-ancestors of the GraphiQL page"},
	{"GRAPHQL_MAX_DEPTH", "0 (unlimited)", "maximum query depth"},
	{"GRAPHQL_MAX_COMPLEXITY", "0 (unlimited)", "maximum query complexity"},
	{"GRAPHQL_MAX_FIELDS", "0 (unlimited)", "maximum field selections"},
	{"GRAPHQL_MAX_ALIASES", "0 (unlimited)", "maximum aliases"},
	{"GRAPHQL_MAX_DIRECTIVES", "0 (unlimited)", "maximum directives"},
	{"GRAPHQL_REPORT_COMPLEXITY", "false", "report the limits analysis in response extensions"},
	{"GRAPHQL_MAX_BODY_BYTES", "1048576", "maximum request body size"},
	{"GRAPHQL_MAX_TOKENS", "15000", "maximum lexical tokens in a query"},
	{"GRAPHQL_MAX_RESPONSE_BYTES", "16777216", "maximum response size"},
	{"GRAPHQL_INTROSPECTION", "true", "allow introspection queries"},
	{"GRAPHQL_DOCUMENT_CACHE_SIZE", "1000", "parsed documents kept in the LRU cache"},
	{"GRAPHQL_MAX_IN_FLIGHT", "512", "requests served at once; more are answered 503 SERVER_BUSY with Retry-After"},
	{"GRAPHQL_MAX_BUFFERED_BYTES", "33554432", "bytes of large answers waiting for slow clients; past it 503 SERVER_BUSY"},
	{"GRAPHQL_DOCUMENT_CACHE_BYTES", "33554432", "estimated bytes of the document cache; a document over a 64th of it is not cached"},
	{"GRAPHQL_TIMEOUT", "30s", "execution timeout per request (Go duration)"},
	{"GRAPHQL_MASK_ERRORS", "false", "hide the messages of unexpected resolver errors"},
	{"GRAPHQL_SPEC_STATUS_CODES", "false", "answer request errors with 200 to application/json-only clients"},
	{"GRAPHQL_CSRF_PREVENTION", "false", "refuse requests without a preflight header that browsers could send cross-site"},
}

// ConfigFromEnv reads a Config from the process environment. Unset
// variables keep the defaults; a bad value is an error naming the variable
// and the value, and every bad variable is reported at once.
func ConfigFromEnv() (Config, error) { return ConfigFromLookup(nil) }

// ConfigFromLookup is ConfigFromEnv reading variables through lookup
// (os.LookupEnv when nil), for tests and other sources.
func ConfigFromLookup(lookup func(string) (string, bool)) (Config, error) {
	var s envSpec
	if err := envconf.Parse(&s, lookup); err != nil {
		return Config{}, err
	}
	if s.Timeout < 0 {
		return Config{}, fmt.Errorf("GRAPHQL_TIMEOUT=%q: must not be negative", s.Timeout)
	}
	cfg := Config{
		Path: s.Path,
		Complexity: limits.Config{
			MaxDepth:      int(s.MaxDepth),
			MaxComplexity: int(s.MaxComplexity),
			MaxFields:     int(s.MaxFields),
			MaxAliases:    int(s.MaxAliases),
			MaxDirectives: int(s.MaxDirectives),
		},
		ReportComplexity:     bool(s.ReportComplexity),
		MaxBodyBytes:         int64(s.MaxBodyBytes),
		MaxTokens:            int(s.MaxTokens),
		MaxResponseBytes:     int(s.MaxResponseBytes),
		DisableIntrospection: s.Introspection != nil && !bool(*s.Introspection),
		DocumentCacheSize:    int(s.DocumentCacheSize),
		DocumentCacheBytes:   int64(s.DocumentCacheBytes),
		MaxInFlight:          int(s.MaxInFlight),
		MaxBufferedBytes:     int64(s.MaxBufferedBytes),
		Timeout:              s.Timeout,
		MaskErrors:           bool(s.MaskErrors),
		SpecStatusCodes:      bool(s.SpecStatusCodes),
	}
	if s.GraphiQLEnabled != nil && bool(*s.GraphiQLEnabled) {
		cfg.GraphiQL = &GraphiQLConfig{Path: s.GraphiQLPath, Endpoint: s.GraphiQLEndpoint, AssetBaseURL: s.GraphiQLAssetBaseURL,
			FrameAncestors: s.GraphiQLFrameAnc}
	}
	if s.CSRF != nil && bool(*s.CSRF) {
		cfg.CSRF = &CSRFConfig{}
	}
	return cfg.withDefaults()
}
