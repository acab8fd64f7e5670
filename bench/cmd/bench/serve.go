package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/servers"
	"github.com/graftgql/graft/bench/upstream"
)

// readyLine is what a child prints on stdout once it accepts connections.
const readyLine = servers.ReadyLine

// serveMain runs one server until SIGTERM or SIGINT (`bench serve`, the
// same command line as cmd/benchserve).
func serveMain(args []string) error { return servers.Main(args) }

// upstreamMain runs the upstream service until SIGTERM or SIGINT.
func upstreamMain(args []string) error {
	fs := flag.NewFlagSet("upstream", flag.ContinueOnError)
	host := fs.String("host", "127.0.0.1", "address to listen on")
	port := fs.Int("port", 0, "port to listen on")
	latency := fs.Duration("latency", upstream.Latency, "time each data call waits before it answers")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ln, err := net.Listen("tcp", net.JoinHostPort(*host, strconv.Itoa(*port)))
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: upstream.New(data.Shared(), *latency), ReadHeaderTimeout: 10 * time.Second}
	fmt.Println(readyLine)
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
