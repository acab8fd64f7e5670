package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/internal/envconf"
	"github.com/graftgql/graft/persisted"
)

// serverEnv holds the server's own variables, beside those read by
// graft.ConfigFromEnv and persisted.ConfigFromEnv.
type serverEnv struct {
	Port          envconf.Limit `env:"PORT"`
	Host          string        `env:"HOST"`
	Example       string        `env:"GRAFT_EXAMPLE"`
	RedisURL      string        `env:"REDIS_URL"`
	RedisPrefix   string        `env:"REDIS_PREFIX"`
	RedisTTL      time.Duration `env:"REDIS_TTL"`
	CORSOrigins   string        `env:"CORS_ORIGINS"`
	CSRF          *envconf.Bool `env:"CSRF_PROTECTION"`
	LogLevel      string        `env:"LOG_LEVEL"`
	LogFormat     string        `env:"LOG_FORMAT"`
	ShutdownGrace time.Duration `env:"SHUTDOWN_GRACE"`
}

// serverVars documents the server's own variables for --help.
var serverVars = []graft.EnvVar{
	{Name: "PORT", Default: "4000", Description: "TCP port to listen on"},
	{Name: "HOST", Default: "0.0.0.0", Description: "address to bind"},
	{Name: "GRAFT_EXAMPLE", Default: defaultExample, Description: "example schema to serve: " + exampleNames()},
	{Name: "REDIS_URL", Default: "(unset: in-memory store)", Description: "redis:// URL; keeps APQ queries in Redis (shared by instances), carries the chat example's messages across instances (Redis Pub/Sub), and adds a readiness check"},
	{Name: "REDIS_PREFIX", Default: "graft:pq:", Description: "key prefix of persisted queries in Redis"},
	{Name: "REDIS_TTL", Default: "0 (no expiry)", Description: "lifetime of a persisted query in Redis (Go duration)"},
	{Name: "CORS_ORIGINS", Default: "*", Description: "comma-separated allowed origins; \"off\" disables CORS"},
	{Name: "CSRF_PROTECTION", Default: "true", Description: "refuse GET and simple POST requests without a preflight header"},
	{Name: "LOG_LEVEL", Default: "info", Description: "debug, info, warn or error"},
	{Name: "LOG_FORMAT", Default: "text", Description: "text or json"},
	{Name: "SHUTDOWN_GRACE", Default: "10s", Description: "time in-flight requests get to finish on shutdown"},
}

// pqVars documents the persisted-query variables read by persisted.ConfigFromEnv.
var pqVars = []graft.EnvVar{
	{Name: persisted.EnvMode, Default: "apq", Description: "apq, safelist, or off"},
	{Name: persisted.EnvManifest, Default: "(unset)", Description: "Apollo or Relay manifest file; implies safelist"},
	{Name: persisted.EnvEnableGet, Default: "true", Description: "allow persisted queries over GET"},
	{Name: persisted.EnvValidateHash, Default: "true", Description: "check that a registered query matches its hash"},
	{Name: persisted.EnvHashAlgorithm, Default: "sha256", Description: "sha256 or sha512"},
	{Name: persisted.EnvCacheControl, Default: persisted.DefaultCacheControl, Description: "Cache-Control of GET hits"},
	{Name: persisted.EnvStoreSize, Default: "1000", Description: "entries of the in-memory APQ store"},
}

// serverDefaults are the values the server uses where the library's
// default differs: GraphiQL and CSRF protection are on.
var serverDefaults = map[string]string{
	"GRAPHIQL_ENABLED":        "true",
	"GRAPHQL_CSRF_PREVENTION": "true",
}

// withServerDefaults returns a lookup that answers serverDefaults for
// unset variables, and GRAPHQL_CSRF_PREVENTION from CSRF_PROTECTION.
func withServerDefaults(lookup env) env {
	return func(name string) (string, bool) {
		if name == "GRAPHQL_CSRF_PREVENTION" {
			// A bad CSRF_PROTECTION is reported by parseServerEnv.
			if v, ok := lookup("CSRF_PROTECTION"); ok && v != "" {
				if _, err := envconf.ParseBool(v); err == nil {
					return v, true
				}
			}
		}
		if v, ok := lookup(name); ok && v != "" {
			return v, true
		}
		v, ok := serverDefaults[name]
		return v, ok
	}
}

// parseServerEnv reads the server's own variables.
func parseServerEnv(lookup env) (serverEnv, error) {
	var s serverEnv
	var errs []error
	if err := envconf.Parse(&s, envconf.Lookup(lookup)); err != nil {
		errs = append(errs, err)
	}
	if s.Port > 65535 {
		errs = append(errs, fmt.Errorf("PORT=%q: must be at most 65535", fmt.Sprint(int(s.Port))))
	}
	if s.Example == "" {
		s.Example = defaultExample
	}
	if _, ok := examples[strings.ToLower(s.Example)]; !ok {
		errs = append(errs, fmt.Errorf("GRAFT_EXAMPLE=%q: want one of %s", s.Example, exampleNames()))
	}
	if _, err := parseLevel(s.LogLevel); err != nil {
		errs = append(errs, fmt.Errorf("LOG_LEVEL=%q: want debug, info, warn or error", s.LogLevel))
	}
	switch strings.ToLower(s.LogFormat) {
	case "", "text", "json":
	default:
		errs = append(errs, fmt.Errorf("LOG_FORMAT=%q: want text or json", s.LogFormat))
	}
	if s.ShutdownGrace < 0 || s.RedisTTL < 0 {
		errs = append(errs, errors.New("SHUTDOWN_GRACE and REDIS_TTL must not be negative"))
	}
	return s, errors.Join(errs...)
}

func parseLevel(s string) (slog.Level, error) {
	var l slog.Level
	if s == "" {
		return slog.LevelInfo, nil
	}
	err := l.UnmarshalText([]byte(s))
	return l, err
}

// newLogger returns the structured logger LOG_LEVEL and LOG_FORMAT ask for.
func newLogger(w io.Writer, s serverEnv) *slog.Logger {
	level, _ := parseLevel(s.LogLevel)
	opts := &slog.HandlerOptions{Level: level}
	if strings.EqualFold(s.LogFormat, "json") {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// printUsage writes the --help text: commands, flags and every variable.
func printUsage(w io.Writer, flags func()) {
	fmt.Fprint(w, `usage: graft [serve] [-example blog|chat|starwars]
       graft manifest [-o out.json] files.graphql...
       graft hash [-algorithm sha256|sha512] [file|-]
       graft sdl [-example blog|chat|starwars]

graft serve (the default) serves an example schema at /graphql with GraphiQL
at /graphiql, automatic persisted queries, and /health and /ready. It stops
gracefully on SIGINT or SIGTERM.

Flags:
`)
	flags()
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	section := func(title string, vars []graft.EnvVar, override map[string]string) {
		fmt.Fprintf(tw, "\n%s\n", title)
		for _, v := range vars {
			def := v.Default
			if d, ok := override[v.Name]; ok {
				def = d
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", v.Name, def, v.Description)
		}
	}
	section("Server environment (name, default, meaning):", serverVars, nil)
	section("Router environment:", graft.EnvVars, map[string]string{
		"GRAPHIQL_ENABLED":        "true",
		"GRAPHQL_CSRF_PREVENTION": "CSRF_PROTECTION",
	})
	section("Persisted queries environment:", pqVars, nil)
	_ = tw.Flush()
}
