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
	"runtime/pprof"
	"strconv"
	"syscall"
	"time"

	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/servers"
	"github.com/graftgql/graft/bench/upstream"
)

// readyLine is what a child prints on stdout once it accepts connections.
const readyLine = "ready"

// serveMain runs one server until SIGTERM or SIGINT.
func serveMain(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	name := fs.String("server", "", "server to run")
	host := fs.String("host", "127.0.0.1", "address to listen on")
	port := fs.Int("port", 0, "port to listen on")
	upstreamURL := fs.String("upstream", "", "base URL of the upstream service (upstream servers)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	allocProfile := fs.String("allocprofile", "", "write an allocation profile at exit to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	s, ok := servers.Lookup(*name)
	if !ok {
		return fmt.Errorf("unknown server %q", *name)
	}
	if *port <= 0 {
		return fmt.Errorf("-port is required")
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if s.Serve == nil {
		return fmt.Errorf("%s is not a Go server", *name)
	}
	env := servers.Env{Host: *host, Port: *port}
	if *upstreamURL != "" {
		env.Upstream = upstream.NewClient(*upstreamURL)
	}
	err := s.Serve(ctx, env, func() { fmt.Println(readyLine) })
	if *allocProfile != "" {
		if perr := writeAllocProfile(*allocProfile); perr != nil && err == nil {
			err = perr
		}
	}
	return err
}

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

func writeAllocProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return pprof.Lookup("allocs").WriteTo(f, 0)
}
