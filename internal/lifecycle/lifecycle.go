// Package lifecycle runs a server through the start-up and shutdown order
// that graft.Serve and the fasthttp adapter share: start the service
// layer, serve, report the URL, wait for cancellation or SIGINT/SIGTERM,
// shut down gracefully within a grace period, then stop the layer. Keeping
// it in one place makes every host behave the same.
package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

// Layer is the part of graft.Layer the lifecycle drives.
type Layer interface {
	Start(ctx context.Context) error
	Stop(ctx context.Context) error
}

// Server is a started-on-demand server.
type Server struct {
	// Serve blocks until the server stops; http.ErrServerClosed (or nil)
	// means a requested stop.
	Serve func() error
	// Shutdown stops accepting and waits for in-flight requests until ctx
	// ends.
	Shutdown func(ctx context.Context) error
	// Close stops the server at once, dropping connections.
	Close func() error
	// CloseListener releases the listener when start-up fails before
	// Serve runs.
	CloseListener func() error
}

// Options are the lifecycle settings; all are required except OnStart,
// OnShutdown and Delay.
type Options struct {
	URL     string
	OnStart func(url string)
	// OnShutdown is called as shutdown begins, before Delay.
	OnShutdown func()
	// Delay is the drain delay: the server goes on serving this long
	// after shutdown begins, before it stops accepting connections. A
	// second signal ends it early.
	Delay  time.Duration
	Grace  time.Duration
	Logger *slog.Logger
}

// Listen listens on host:port, naming the address in the error.
func Listen(host string, port int) (net.Listener, error) {
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("graft: cannot listen on %s: %w", addr, err)
	}
	return ln, nil
}

// URL returns the URL clients use to reach a server bound to host at addr:
// http://localhost:<port> when host is empty, 0.0.0.0 or ::, else
// http://<host>:<port>. The port is read from addr, so a listener on port
// 0 reports the port it was given.
func URL(host string, addr net.Addr) string {
	port := ""
	if tcp, ok := addr.(*net.TCPAddr); ok {
		port = strconv.Itoa(tcp.Port)
	} else if _, p, err := net.SplitHostPort(addr.String()); err == nil {
		port = p
	}
	switch host {
	case "", "0.0.0.0", "::", "[::]":
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// Run starts layer (nil for none), serves, calls OnStart and logs the URL,
// waits for ctx, SIGINT or SIGTERM, shuts the server down within the grace
// period (closing what is left after it), and stops the layer last. It
// returns nil after a clean shutdown.
func Run(ctx context.Context, srv Server, layer Layer, opts Options) error {
	log := opts.Logger
	if layer != nil {
		if err := layer.Start(ctx); err != nil {
			_ = srv.CloseListener()
			return fmt.Errorf("graft: start layer: %w", err)
		}
	}

	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)

	served := make(chan error, 1)
	go func() { served <- srv.Serve() }()
	log.Info("graft: serving", "url", opts.URL)
	if opts.OnStart != nil {
		opts.OnStart(opts.URL)
	}

	var serveErr error
	select {
	case <-ctx.Done():
		log.Info("graft: shutting down", "grace", opts.Grace)
	case sig := <-signals:
		log.Info("graft: shutting down", "signal", sig.String(), "grace", opts.Grace)
	case err := <-served:
		served = nil
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			serveErr = fmt.Errorf("graft: serve: %w", err)
		}
	}
	if opts.OnShutdown != nil {
		opts.OnShutdown()
	}
	if served != nil && opts.Delay > 0 {
		log.Info("graft: draining: not ready, still serving until the delay ends", "delay", opts.Delay)
		drain := time.NewTimer(opts.Delay)
		select {
		case <-drain.C:
		case sig := <-signals:
			drain.Stop()
			log.Info("graft: second signal, drain delay ended early", "signal", sig.String())
		case err := <-served:
			drain.Stop()
			served = nil
			if err != nil && !errors.Is(err, http.ErrServerClosed) {
				serveErr = fmt.Errorf("graft: serve: %w", err)
			}
		}
	}

	shutdownErr := shutdown(srv, served, opts)
	var stopErr error
	if layer != nil {
		stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), opts.Grace)
		if err := layer.Stop(stopCtx); err != nil {
			log.Error("graft: stop layer", "err", err)
			stopErr = fmt.Errorf("graft: stop layer: %w", err)
		}
		cancel()
	}
	log.Info("graft: stopped")
	return errors.Join(serveErr, shutdownErr, stopErr)
}

// shutdown stops the server gracefully within the grace period, then
// closes the connections left. served is nil when the server already
// stopped on its own.
func shutdown(srv Server, served chan error, opts Options) error {
	ctx, cancel := context.WithTimeout(context.Background(), opts.Grace)
	defer cancel()
	err := srv.Shutdown(ctx)
	if err != nil {
		opts.Logger.Warn("graft: grace period over, closing connections", "err", err)
		_ = srv.Close()
	}
	if served != nil {
		<-served
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	return err
}
