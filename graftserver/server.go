package graftserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/redis/go-redis/v9"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/accesslog"
	"github.com/graftgql/graft/internal/envconf"
	"github.com/graftgql/graft/persisted"
	"github.com/graftgql/graft/persisted/redisstore"
	"github.com/graftgql/graft/pubsub"
	"github.com/graftgql/graft/pubsub/redispubsub"
	"github.com/graftgql/graft/ratelimit"
	"github.com/graftgql/graft/ratelimit/redislimit"
)

// server is everything Run starts.
type server struct {
	svc      Service
	router   *graft.Router
	opts     graft.ServeOptions
	log      *slog.Logger
	logs     *accesslog.Writer // the buffered writer of log's lines
	tel      *telemetry
	metrics  *http.Server // on METRICS_ADDR; nil when the metrics share the API's listener
	metricLn net.Listener
	draining atomic.Bool
	closers  []func()
}

// close releases what newServer opened, last first.
func (s *server) close() {
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
	s.closers = nil
}

// newServer reads the environment and builds the router, the mux with
// health routes, metrics and CORS, and the serve options.
func newServer(ctx context.Context, svc Service, lookup func(string) (string, bool), logOut io.Writer) (*server, error) {
	if svc.Schema == nil {
		return nil, errors.New("graftserver: Service.Schema is nil")
	}
	se, err := parseServerEnv(lookup)
	cfg, cfgErr := graft.ConfigFromLookup(withServerDefaults(lookup))
	pqOpts, pqOff, pqErr := persistedQueriesFromEnv(lookup)
	telEnv, exporter, telErr := parseTelemetry(lookup)
	rlOpts, rlErr := ratelimit.OptionsFromEnv(lookup)
	var rlEnv envconf.RateLimit
	if rlErr == nil {
		rlErr = envconf.Parse(&rlEnv, envconf.Lookup(lookup))
	}
	if err := errors.Join(err, cfgErr, pqErr, telErr, rlErr); err != nil {
		return nil, fmt.Errorf("bad environment:\n%w", err)
	}
	if telEnv.MetricsAddr == "" && (telEnv.MetricsPath == cfg.Path || cfg.GraphiQL != nil && telEnv.MetricsPath == cfg.GraphiQL.Path) {
		return nil, fmt.Errorf("bad environment:\nMETRICS_PATH=%q: taken by GraphQL or GraphiQL", telEnv.MetricsPath)
	}
	log, logs := newLogger(logOut, se)
	cfg.Logger = log
	if se.AccessLog == nil || bool(*se.AccessLog) {
		cfg.AccessLog = log
	}
	srv := &server{svc: svc, log: log, logs: logs}
	// Last of all, once the server has stopped: every log line is written.
	srv.closers = append(srv.closers, func() { _ = logs.Close() })
	ok := false
	defer func() {
		if !ok {
			srv.close()
		}
	}()

	grace := se.serve.ShutdownGrace
	if grace <= 0 {
		grace = graft.DefaultShutdownGrace
	}
	tel, err := newTelemetry(ctx, telEnv, exporter, svc.name(), lookup, log)
	if err != nil {
		return nil, err
	}
	srv.tel = tel
	// The spans of the last requests are flushed after the server has
	// stopped, within the shutdown grace.
	srv.closers = append(srv.closers, func() {
		if err := tel.shutdownWithin(grace); err != nil {
			log.Warn("graft: flushing telemetry", "err", err)
		}
	})
	tel.install(&cfg)

	checks := []graft.Check{}
	var ps pubsub.PubSub
	var client *redis.Client
	if se.RedisURL != "" {
		if client, err = newRedisClient(se.RedisURL); err != nil {
			return nil, err
		}
		srv.closers = append(srv.closers, func() { _ = client.Close() })
		rps := redispubsub.New(client, redispubsub.Options{})
		srv.closers = append(srv.closers, func() { _ = rps.Close() })
		ps = rps
		checks = append(checks, graft.Check{Name: "redis-pubsub", Logger: log, Fn: func(ctx context.Context) error {
			return client.Ping(ctx).Err()
		}})
	} else {
		mps := pubsub.NewMemory(pubsub.Options{})
		srv.closers = append(srv.closers, func() { _ = mps.Close() })
		ps = mps
	}
	s, err := svc.Schema(ps)
	if err != nil {
		return nil, err
	}
	if !pqOff {
		if client != nil && pqOpts.Mode != persisted.Safelist {
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
	if rlOpts.Budget > 0 {
		if client != nil {
			// Every instance charges one budget per client.
			rlOpts.Store = redislimit.New(client, redislimit.Options{Prefix: rlEnv.RedisPrefix})
		}
		rlOpts.Logger = log
		limiter, err := ratelimit.New(rlOpts)
		if err != nil {
			return nil, err
		}
		limiter.Install(&cfg)
	}
	if svc.Config != nil {
		if err := svc.Config(&cfg); err != nil {
			return nil, err
		}
	}
	layer := svc.Layer
	if layer == nil {
		layer = graft.NewLayer()
	}
	if srv.router, err = graft.NewRouter(s, layer, cfg); err != nil {
		return nil, err
	}
	if err := tel.observe(srv.router); err != nil {
		return nil, err
	}
	for _, c := range svc.Checks {
		if c.Logger == nil {
			c.Logger = log
		}
		checks = append(checks, c)
	}

	mux := http.NewServeMux()
	mux.Handle("GET /health", graft.Health())
	mux.Handle("GET /ready", srv.ready(graft.Ready(checks...)))
	if tel.metrics != nil {
		if telEnv.MetricsAddr == "" {
			mux.Handle("GET "+tel.metricsPath, tel.metrics)
		} else {
			mmux := http.NewServeMux()
			mmux.Handle("GET "+tel.metricsPath, tel.metrics)
			ln, err := net.Listen("tcp", telEnv.MetricsAddr)
			if err != nil {
				return nil, fmt.Errorf("METRICS_ADDR=%q: %w", telEnv.MetricsAddr, err)
			}
			srv.metricLn = ln
			srv.metrics = &http.Server{Handler: mmux, ReadHeaderTimeout: graft.DefaultReadHeaderTimeout,
				ReadTimeout: graft.DefaultReadTimeout, WriteTimeout: graft.DefaultWriteTimeout, IdleTimeout: graft.DefaultIdleTimeout,
				MaxHeaderBytes: 16 << 10, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
			srv.closers = append(srv.closers, func() { _ = srv.metrics.Close(); _ = ln.Close() })
		}
	}
	if svc.Routes != nil {
		svc.Routes(mux)
	}
	var api http.Handler = srv.router
	if svc.Handler != nil {
		api = svc.Handler(api)
	}
	mux.Handle("/", api)
	var handler http.Handler = mux
	if origins := strings.TrimSpace(se.CORSOrigins); !strings.EqualFold(origins, "off") {
		handler = graft.CORS(graft.CORSOptions{AllowedOrigins: splitList(origins)})(mux)
	}
	srv.opts = se.serve
	srv.opts.Handler = handler
	srv.opts.Logger = log
	srv.opts.OnStart = srv.started(cfg)
	if svc.Serve != nil {
		svc.Serve(&srv.opts)
	}
	// Readiness turns false first, whatever else OnShutdown does.
	onShutdown := srv.opts.OnShutdown
	srv.opts.OnShutdown = func() {
		srv.draining.Store(true)
		if onShutdown != nil {
			onShutdown()
		}
	}
	logLimits(log, cfg)
	log.Debug("graft: configured", "service", svc.name(), "path", cfg.Path,
		"persistedQueries", !pqOff, "redis", se.RedisURL != "", "csrf", cfg.CSRF != nil, "rateLimitBudget", rlOpts.Budget)
	if tel.tp != nil || tel.metrics != nil {
		log.Info("graft: telemetry", "traces", exporter, "metrics", tel.metrics != nil, "metricsPath", tel.metricsPath,
			"metricsAddr", telEnv.MetricsAddr)
	}
	_ = logs.Flush() // the start-up lines, at once
	ok = true
	return srv, nil
}

// run serves until ctx ends or a signal, then releases everything.
func (s *server) run(ctx context.Context) error {
	defer s.close()
	if s.metrics != nil {
		go func() {
			if err := s.metrics.Serve(s.metricLn); err != nil && !errors.Is(err, http.ErrServerClosed) {
				s.log.Error("graft: metrics server failed", "err", err)
			}
		}()
	}
	if err := graft.Serve(ctx, s.router, s.opts); err != nil {
		s.log.Error("graft: server failed", "err", err)
		return err
	}
	return nil
}

// ready answers 503 {"status":"shutting down"} once shutdown has begun,
// else what checks answers.
func (s *server) ready(checks http.Handler) http.Handler {
	body := []byte(`{"status":"shutting down"}` + "\n")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.draining.Load() {
			h := w.Header()
			h.Set("Content-Type", "application/json; charset=utf-8")
			h.Set("Cache-Control", "no-store")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write(body)
			return
		}
		checks.ServeHTTP(w, r)
	})
}

// started returns the OnStart callback that says what is served where.
func (s *server) started(cfg graft.Config) func(url string) {
	return func(url string) {
		attrs := []any{"service", s.svc.name(), "graphql", url + cfg.Path}
		if cfg.GraphiQL != nil {
			attrs = append(attrs, "graphiql", url+cfg.GraphiQL.Path)
		}
		attrs = append(attrs, "health", url+"/health", "ready", url+"/ready")
		if s.tel.metrics != nil {
			if s.metricLn != nil {
				attrs = append(attrs, "metrics", "http://"+s.metricLn.Addr().String()+s.tel.metricsPath)
			} else {
				attrs = append(attrs, "metrics", url+s.tel.metricsPath)
			}
		}
		s.log.Info("graft: ready", attrs...)
		_ = s.logs.Flush() // the line saying where to connect, at once
	}
}

// persistedQueriesFromEnv reads the persisted-query options. Unset means
// APQ with the in-memory store; PERSISTED_QUERIES_MODE=off turns them off.
func persistedQueriesFromEnv(lookup func(string) (string, bool)) (opts persisted.Options, off bool, err error) {
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

// logLimits prints the limits in force at start-up, so an operator sees
// what a query may cost without reading --help (0 is unlimited).
func logLimits(log *slog.Logger, cfg graft.Config) {
	c := cfg.Complexity
	log.Info("graft: limits (0 = unlimited; see --help)",
		"maxDepth", c.MaxDepth, "maxComplexity", c.MaxComplexity, "maxFields", c.MaxFields,
		"maxAliases", c.MaxAliases, "maxDirectives", c.MaxDirectives,
		"maxBodyBytes", cfg.MaxBodyBytes, "maxTokens", cfg.MaxTokens, "maxResponseBytes", cfg.MaxResponseBytes,
		"timeout", cfg.Timeout, "introspection", !cfg.DisableIntrospection, "graphiql", cfg.GraphiQL != nil,
		"maskErrors", cfg.MaskErrors)
}
