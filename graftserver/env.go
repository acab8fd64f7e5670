package graftserver

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
)

// serverEnv holds the server's own settings: the variables only
// graftserver reads, and the ServeOptions read by
// graft.ServeOptions.WithEnv.
type serverEnv struct {
	envconf.Server
	serve graft.ServeOptions
}

// withServerDefaults returns a lookup that answers the production
// defaults of the declaration (the graft tags) for unset variables, and
// GRAPHQL_CSRF_PREVENTION from CSRF_PROTECTION.
func withServerDefaults(lookup func(string) (string, bool)) func(string) (string, bool) {
	defaults := map[string]string{}
	for _, s := range envconf.Sections() {
		for _, v := range s.Vars {
			if v.Graft != "" {
				defaults[v.Name] = v.Graft
			}
		}
	}
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
		v, ok := defaults[name]
		return v, ok
	}
}

// parseServerEnv reads the server's own variables.
func parseServerEnv(lookup func(string) (string, bool)) (serverEnv, error) {
	var s serverEnv
	var errs []error
	if err := envconf.Parse(&s.Server, envconf.Lookup(lookup)); err != nil {
		errs = append(errs, err)
	}
	serve, err := graft.ServeOptions{}.WithEnv(lookup)
	if err != nil {
		errs = append(errs, err)
	}
	s.serve = serve
	if _, err := parseLevel(s.LogLevel); err != nil {
		errs = append(errs, fmt.Errorf("LOG_LEVEL=%q: want debug, info, warn or error", s.LogLevel))
	}
	switch strings.ToLower(s.LogFormat) {
	case "", "text", "json":
	default:
		errs = append(errs, fmt.Errorf("LOG_FORMAT=%q: want text or json", s.LogFormat))
	}
	return s, errors.Join(errs...)
}

// redisTTL is REDIS_TTL, zero (redisstore.DefaultTTL) when unset.
func (s serverEnv) redisTTL() time.Duration {
	if s.RedisTTL == nil {
		return 0
	}
	return time.Duration(*s.RedisTTL)
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

// printUsage writes the --help text: commands, flags and every variable
// of the declaration in internal/envconf with the production defaults,
// leaving out cmd/graft's own section for another program.
func printUsage(w io.Writer, prog string, flags func()) {
	fmt.Fprintf(w, `usage: %[1]s [serve] [flags]
       %[1]s sdl [flags]
       %[1]s manifest [-o out.json] files.graphql...
       %[1]s hash [-algorithm sha256|sha512] [-raw] [file|-]

%[1]s serve (the default) serves the schema at /graphql with GraphiQL at
/graphiql, automatic persisted queries, and /health and /ready. It stops
gracefully on SIGINT or SIGTERM. sdl prints the schema; manifest builds a
persisted-query manifest (a safelist) from the operations of .graphql
files; hash prints the id a manifest gives each operation of a file.

Flags:
`, prog)
	flags()
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	for _, s := range envconf.Sections() {
		if s.Reader == "cmd/graft" && prog != "graft" {
			continue
		}
		fmt.Fprintf(tw, "\n%s: variable, default here, meaning\n", s.Title)
		for _, v := range s.Vars {
			def := v.Default
			if v.Graft != "" {
				def = v.Graft
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", v.Name, def, v.Description)
		}
	}
	_ = tw.Flush()
}
