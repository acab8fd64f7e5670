package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/chat"
	"github.com/graftgql/graft/federation"
	"github.com/graftgql/graft/persisted"
	"github.com/graftgql/graft/persisted/redisstore"
	"github.com/graftgql/graft/pubsub/redispubsub"
)

// runServe serves an example schema until ctx ends or SIGINT/SIGTERM.
func runServe(ctx context.Context, args []string, lookup env, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("graft", flag.ContinueOnError)
	fs.SetOutput(stderr)
	example := fs.String("example", "", "example schema to serve: "+exampleNames()+" (default $GRAFT_EXAMPLE or "+defaultExample+")")
	fs.Usage = func() {
		fs.SetOutput(stdout)
		printUsage(stdout, fs.PrintDefaults)
		fs.SetOutput(stderr)
	}
	if err := fs.Parse(args); err != nil {
		return usageCode(err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "graft: unexpected arguments %q (graft --help)\n", fs.Args())
		return 2
	}
	if *example != "" {
		base := lookup
		lookup = func(name string) (string, bool) {
			if name == "GRAFT_EXAMPLE" {
				return *example, true
			}
			return base(name)
		}
	}

	srv, err := newServer(lookup, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "graft: %v\n", err)
		return 1
	}
	defer srv.close()
	if err := graft.Serve(ctx, srv.router, srv.opts); err != nil {
		srv.log.Error("graft: server failed", "err", err)
		return 1
	}
	return 0
}

// server is everything runServe starts.
type server struct {
	router *graft.Router
	opts   graft.ServeOptions
	log    *slog.Logger
	close  func()
}

// newServer reads the environment and builds the router, the mux with
// health routes and CORS, and the serve options.
func newServer(lookup env, logOut io.Writer) (*server, error) {
	se, err := parseServerEnv(lookup)
	cfg, cfgErr := graft.ConfigFromLookup(withServerDefaults(lookup))
	pqOpts, pqOff, pqErr := persistedQueriesFromEnv(lookup)
	telEnv, exporters, telErr := parseTelemetry(lookup)
	if err := errors.Join(err, cfgErr, pqErr, telErr); err != nil {
		return nil, fmt.Errorf("bad environment:\n%w", err)
	}
	if telEnv.MetricsPath == cfg.Path || cfg.GraphiQL != nil && telEnv.MetricsPath == cfg.GraphiQL.Path {
		return nil, fmt.Errorf("bad environment:\nMETRICS_PATH=%q: taken by GraphQL or GraphiQL", telEnv.MetricsPath)
	}
	log := newLogger(logOut, se)
	cfg.Logger = log
	if se.AccessLog == nil || bool(*se.AccessLog) {
		cfg.AccessLog = log
	}
	s, err := buildExample(se.Example)
	if err != nil {
		return nil, err
	}

	tel, err := newTelemetry(context.Background(), telEnv, exporters, os.Stdout)
	if err != nil {
		return nil, err
	}
	grace := se.serve.ShutdownGrace
	if grace <= 0 {
		grace = graft.DefaultShutdownGrace
	}
	// The spans of the last requests are flushed after the server has
	// stopped, within the shutdown grace.
	srv := &server{log: log, close: func() {
		if err := tel.shutdownWithin(grace); err != nil {
			log.Warn("graft: flushing telemetry", "err", err)
		}
	}}
	tel.install(&cfg)
	var checks []graft.Check
	isChat := strings.EqualFold(se.Example, "chat")
	if isChat && se.RedisURL != "" {
		// The chat example publishes its messages through Redis, so every
		// instance's subscribers receive them.
		client, err := newRedisClient(se.RedisURL)
		if err != nil {
			return nil, err
		}
		ps := redispubsub.New(client, redispubsub.Options{})
		srv.close = func() { _ = ps.Close(); _ = client.Close() }
		if s, err = chat.New(ps).Schema(); err != nil {
			srv.close()
			return nil, err
		}
		checks = append(checks, graft.Check{Name: "redis-pubsub", Fn: func(ctx context.Context) error {
			return client.Ping(ctx).Err()
		}})
	}
	if !pqOff {
		if se.RedisURL != "" && pqOpts.Mode == persisted.Safelist && !isChat {
			log.Warn("graft: REDIS_URL is not used in safelist mode: the safelist comes from PERSISTED_QUERIES_MANIFEST")
		}
		if se.RedisURL != "" && pqOpts.Mode != persisted.Safelist {
			client, err := newRedisClient(se.RedisURL)
			if err != nil {
				srv.close()
				return nil, err
			}
			closeFirst := srv.close
			srv.close = func() { closeFirst(); _ = client.Close() }
			store := redisstore.New(client, redisstore.Options{Prefix: se.RedisPrefix, TTL: se.redisTTL()})
			pqOpts.Store = store
			// store.Ping always reaches Redis, and closes the store's
			// circuit breaker as soon as Redis answers again.
			checks = append(checks, graft.Check{Name: "redis", Fn: store.Ping, Logger: log})
		}
		cfg.PersistedQueries = &pqOpts
	}
	if origins := strings.TrimSpace(se.CORSOrigins); !strings.EqualFold(origins, "off") {
		cfg.Subscriptions.OriginPatterns = originPatterns(splitList(origins))
	}
	if strings.HasPrefix(strings.ToLower(se.Example), "federation-") {
		cfg.Hooks = append(cfg.Hooks, federation.TracingHook()) // ftv1 inline traces for gateways
	}
	srv.router, err = graft.NewRouter(s, graft.NewLayer(), cfg)
	if err != nil {
		srv.close()
		return nil, err
	}
	if err := tel.observe(srv.router); err != nil {
		srv.close()
		return nil, err
	}

	mux := http.NewServeMux()
	mux.Handle("GET /health", graft.Health())
	mux.Handle("GET /ready", graft.Ready(checks...))
	if tel.metrics != nil {
		mux.Handle("GET "+tel.metricsPath, tel.metrics)
	}
	mux.Handle("/", srv.router)
	var handler http.Handler = mux
	if origins := strings.TrimSpace(se.CORSOrigins); !strings.EqualFold(origins, "off") {
		handler = graft.CORS(graft.CORSOptions{AllowedOrigins: splitList(origins)})(mux)
	}
	srv.opts = se.serve
	srv.opts.Handler = handler
	srv.opts.Logger = log
	logLimits(log, cfg)
	log.Debug("graft: configured", "example", se.Example, "path", cfg.Path,
		"persistedQueries", !pqOff, "redis", se.RedisURL != "", "csrf", cfg.CSRF != nil)
	if tel.tp != nil || tel.metrics != nil {
		log.Info("graft: telemetry", "traces", strings.Join(exporters, ","), "metrics", tel.metrics != nil, "metricsPath", tel.metricsPath)
	}
	return srv, nil
}

// persistedQueriesFromEnv reads the persisted-query options. Unset means
// APQ with the in-memory store; PERSISTED_QUERIES_MODE=off turns them off.
func persistedQueriesFromEnv(lookup env) (opts persisted.Options, off bool, err error) {
	if v, ok := lookup("PERSISTED_QUERIES_MODE"); ok {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "off", "none", "false", "disabled":
			return persisted.Options{}, true, nil
		}
	}
	opts, err = persisted.ConfigFromLookup(lookup)
	if opts.Mode == "" {
		opts.Mode = persisted.APQ
	}
	return opts, false, err
}

// newRedisClient connects to REDIS_URL with context deadlines honoured.
func newRedisClient(url string) (*redis.Client, error) {
	o, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("REDIS_URL: %w", err)
	}
	o.ContextTimeoutEnabled = true
	return redis.NewClient(o), nil
}

// originPatterns turns CORS origins (https://app.example.com, or *) into
// the host patterns that may open a WebSocket, so browsers allowed by CORS
// may also subscribe.
func originPatterns(origins []string) []string {
	if len(origins) == 0 {
		return []string{"*"}
	}
	out := make([]string, 0, len(origins))
	for _, o := range origins {
		if _, rest, ok := strings.Cut(o, "://"); ok {
			o = rest
		}
		out = append(out, o)
	}
	return out
}

// splitList splits a comma-separated list, dropping empty items.
func splitList(s string) []string {
	var out []string
	for item := range strings.SplitSeq(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// usageCode maps a flag parse error to an exit code: 0 for -help.
func usageCode(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}

// logLimits prints the limits in force at start-up, so an operator sees
// what a query may cost without reading --help (0 is unlimited).
func logLimits(log *slog.Logger, cfg graft.Config) {
	c := cfg.Complexity
	log.Info("graft: limits (0 = unlimited; see graft --help)",
		"maxDepth", c.MaxDepth, "maxComplexity", c.MaxComplexity, "maxFields", c.MaxFields,
		"maxAliases", c.MaxAliases, "maxDirectives", c.MaxDirectives,
		"maxBodyBytes", cfg.MaxBodyBytes, "maxTokens", cfg.MaxTokens, "maxResponseBytes", cfg.MaxResponseBytes,
		"timeout", cfg.Timeout, "introspection", !cfg.DisableIntrospection, "graphiql", cfg.GraphiQL != nil,
		"maskErrors", cfg.MaskErrors)
}
