package fasthttpadapter

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/internal/httpapi"
	"github.com/graftgql/graft/internal/lifecycle"
)

// ServeOptions configures Serve. Zero fields take the defaults of
// graft.ServeOptions (port 4000, host 0.0.0.0, 10s grace, 30s read and
// write timeouts, 120s idle timeout).
type ServeOptions struct {
	// Port is the TCP port to listen on; zero means graft.DefaultPort.
	Port int
	// Host is the address to bind; empty means graft.DefaultHost.
	Host string
	// Listener, when set, is used instead of listening on Host and Port.
	Listener net.Listener
	// Handler, when set, is served instead of Handler(router), for example
	// to route health checks beside the router.
	Handler fasthttp.RequestHandler
	// OnStart is called with the server's URL once it is listening.
	OnStart func(url string)
	// ShutdownGrace bounds how long in-flight requests may run after
	// shutdown begins.
	ShutdownGrace time.Duration
	// ShutdownDelay and OnShutdown are graft.ServeOptions' drain delay and
	// shutdown callback: OnShutdown runs as shutdown begins, then the
	// server serves on for ShutdownDelay (a second signal ends it) before
	// it stops accepting connections.
	ShutdownDelay time.Duration
	OnShutdown    func()
	// ReadTimeout, WriteTimeout and IdleTimeout set the fasthttp.Server
	// timeouts of the same names. fasthttp has no separate header
	// timeout: ReadTimeout covers headers and body.
	ReadTimeout  time.Duration
	WriteTimeout time.Duration
	IdleTimeout  time.Duration
	// Logger receives the start line and shutdown events; nil means
	// slog.Default().
	Logger *slog.Logger
}

func orDefault(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}

// Serve serves the router on fasthttp with graft.Serve's lifecycle: listen
// (a port in use is an error naming the address), start the router's
// layer, call OnStart, serve until ctx is cancelled or
// SIGINT/SIGTERM arrives, shut down gracefully within ShutdownGrace, stop
// the layer. Bodies over the router's MaxBodyBytes are refused with 413
// before they are read.
func Serve(ctx context.Context, router *graft.Router, opts ServeOptions) error {
	if router == nil {
		return errors.New("fasthttpadapter: Serve needs a router")
	}
	if opts.Port == 0 {
		opts.Port = graft.DefaultPort
	}
	if opts.Host == "" {
		opts.Host = graft.DefaultHost
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	layer := router.Layer()
	handler := opts.Handler
	if handler == nil {
		handler = Handler(router)
	}
	limit := router.Config().MaxBodyBytes
	srv := &fasthttp.Server{
		Handler:               handler,
		Name:                  "graft",
		NoDefaultServerHeader: true,
		MaxRequestBodySize:    int(limit),
		ReadTimeout:           orDefault(opts.ReadTimeout, graft.DefaultReadTimeout),
		WriteTimeout:          orDefault(opts.WriteTimeout, graft.DefaultWriteTimeout),
		IdleTimeout:           orDefault(opts.IdleTimeout, graft.DefaultIdleTimeout),
		CloseOnShutdown:       true,
		Logger:                slog.NewLogLogger(opts.Logger.Handler(), slog.LevelWarn),
		ErrorHandler: func(ctx *fasthttp.RequestCtx, err error) {
			if errors.Is(err, fasthttp.ErrBodyTooLarge) {
				raw := rawRequest(ctx)
				refuse(ctx, router, &raw, httpapi.BodyTooLarge(limit))
				return
			}
			ctx.Error("Bad Request", fasthttp.StatusBadRequest)
		},
	}

	ln := opts.Listener
	if ln == nil {
		var err error
		if ln, err = lifecycle.Listen(opts.Host, opts.Port); err != nil {
			return err
		}
	}
	var lay lifecycle.Layer
	if layer != nil {
		lay = layer
	}
	return lifecycle.Run(ctx, lifecycle.Server{
		Serve: func() error { return srv.Serve(ln) },
		// Open subscription streams complete first; fasthttp would wait
		// for them otherwise.
		Shutdown: func(ctx context.Context) error {
			router.CloseSubscriptions()
			return srv.ShutdownWithContext(ctx)
		},
		// fasthttp cannot drop connections still busy after the grace
		// period; they finish on their own while the process exits.
		Close:         func() error { return nil },
		CloseListener: ln.Close,
	}, lay, lifecycle.Options{
		URL:        lifecycle.URL(opts.Host, ln.Addr()),
		OnStart:    opts.OnStart,
		OnShutdown: opts.OnShutdown,
		Delay:      max(opts.ShutdownDelay, 0),
		Grace:      orDefault(opts.ShutdownGrace, graft.DefaultShutdownGrace),
		Logger:     opts.Logger,
	})
}
