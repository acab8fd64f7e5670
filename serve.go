package graft

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/graftgql/graft/internal/lifecycle"
)

// Defaults of ServeOptions, applied to zero fields.
const (
	DefaultPort              = 4000
	DefaultHost              = "0.0.0.0"
	DefaultShutdownGrace     = 10 * time.Second
	DefaultReadHeaderTimeout = 5 * time.Second
	DefaultReadTimeout       = 30 * time.Second
	DefaultWriteTimeout      = 60 * time.Second
	DefaultIdleTimeout       = 120 * time.Second
)

// ServeOptions configures Serve. Every zero field takes its default.
type ServeOptions struct {
	// Port is the TCP port to listen on; zero means DefaultPort (4000).
	Port int
	// Host is the address to bind; empty means DefaultHost (all IPv4
	// interfaces).
	Host string
	// Listener, when set, is used instead of listening on Host and Port,
	// for example a listener on port 0 in tests. Serve closes it.
	Listener net.Listener
	// Handler, when set, is served instead of the router: typically a mux
	// holding the router beside health routes, or the router wrapped in
	// middleware such as CORS.
	Handler http.Handler
	// OnStart is called once the server is listening, with the URL clients
	// can use: http://localhost:<port> when bound to every interface, else
	// http://<host>:<port>.
	OnStart func(url string)
	// ShutdownGrace bounds how long in-flight requests may run after
	// shutdown begins; then their connections are closed. Zero means
	// DefaultShutdownGrace.
	ShutdownGrace time.Duration
	// ShutdownDelay is the drain delay: when shutdown begins (ctx ends,
	// or SIGINT or SIGTERM arrives) the server goes on serving for this
	// long before it closes its listener, so that load balancers polling
	// readiness (see OnShutdown) stop sending it traffic first; Kubernetes
	// takes a few seconds to remove an endpoint. A second signal ends the
	// delay early. Zero means no delay.
	ShutdownDelay time.Duration
	// OnShutdown, when set, is called once as shutdown begins, before
	// ShutdownDelay: the place to turn readiness false.
	OnShutdown func()
	// ReadHeaderTimeout, ReadTimeout and IdleTimeout set the http.Server
	// timeouts of the same names (defaults 5s, 30s, 120s). WriteTimeout
	// (default 60s) bounds the writes of a response: a write a client
	// keeps blocked for about that long (between 7/8 of it and all of it)
	// fails and the connection closes. On a TCP listener (Serve's own, or
	// a *net.TCPListener in Listener) it bounds each write rather than the
	// whole request, so a slow request still gets its answer
	// (Config.Timeout bounds the execution), and it costs less per request
	// than http.Server.WriteTimeout; on another listener (TLS, for one) it
	// is http.Server.WriteTimeout. A negative value turns a timeout off.
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	WriteTimeout      time.Duration
	IdleTimeout       time.Duration
	// Logger receives the start line and shutdown events; nil means
	// slog.Default().
	Logger *slog.Logger
}

// withDefaults returns the options with every zero field defaulted.
func (o ServeOptions) withDefaults() ServeOptions {
	if o.Port == 0 {
		o.Port = DefaultPort
	}
	if o.Host == "" {
		o.Host = DefaultHost
	}
	o.ShutdownGrace = serveDuration(o.ShutdownGrace, DefaultShutdownGrace)
	o.ReadHeaderTimeout = serveDuration(o.ReadHeaderTimeout, DefaultReadHeaderTimeout)
	o.ReadTimeout = serveDuration(o.ReadTimeout, DefaultReadTimeout)
	o.WriteTimeout = serveDuration(o.WriteTimeout, DefaultWriteTimeout)
	o.IdleTimeout = serveDuration(o.IdleTimeout, DefaultIdleTimeout)
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

func serveDuration(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}

// Serve serves the router over HTTP until ctx is cancelled or the process
// receives SIGINT or SIGTERM, then shuts down gracefully.
//
// In order it: listens (a port in use is an error naming the address),
// starts the layer so its services exist before the first request, calls
// OnStart and logs one line with the URL, and serves. On shutdown it calls
// OnShutdown, serves on for ShutdownDelay, stops accepting connections, lets in-flight requests finish within
// ShutdownGrace, closes what is left, and finally stops the layer, so
// cleanups run after the last request. The layer is the router's own
// (router.Layer()). Serve returns nil after a clean shutdown.
func Serve(ctx context.Context, router *Router, opts ServeOptions) error {
	opts = opts.withDefaults()
	handler := opts.Handler
	if handler == nil {
		if router == nil {
			return errors.New("graft: Serve needs a router or ServeOptions.Handler")
		}
		handler = router
	}
	var layer *Layer
	if router != nil {
		layer = router.Layer()
	}

	ln := opts.Listener
	if ln == nil {
		var err error
		if ln, err = lifecycle.Listen(opts.Host, opts.Port); err != nil {
			return err
		}
	}
	// A TCP listener's connections bound each write themselves, which
	// costs less per request than the server's write deadline.
	writeTimeout := opts.WriteTimeout
	if _, tcp := ln.(*net.TCPListener); tcp && writeTimeout > 0 {
		ln, writeTimeout = lifecycle.BoundWrites(ln, writeTimeout), 0
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: opts.ReadHeaderTimeout,
		ReadTimeout:       opts.ReadTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       opts.IdleTimeout,
		ErrorLog:          slog.NewLogLogger(opts.Logger.Handler(), slog.LevelWarn),
	}
	if router != nil {
		// Streams and WebSockets end when shutdown begins, so they do not
		// hold it for the whole grace period.
		srv.RegisterOnShutdown(router.CloseSubscriptions)
	}
	var lay lifecycle.Layer
	if layer != nil {
		lay = layer
	}
	return lifecycle.Run(ctx, lifecycle.Server{
		Serve:         func() error { return srv.Serve(ln) },
		Shutdown:      srv.Shutdown,
		Close:         srv.Close,
		CloseListener: ln.Close,
	}, lay, lifecycle.Options{
		URL:        lifecycle.URL(opts.Host, ln.Addr()),
		OnStart:    opts.OnStart,
		OnShutdown: opts.OnShutdown,
		Delay:      max(opts.ShutdownDelay, 0),
		Grace:      opts.ShutdownGrace,
		Logger:     opts.Logger,
	})
}
