package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/graftgql/graft/bench/servers"
)

// readyLine is what a child prints on stdout once it accepts connections.
const readyLine = "ready"

// serveMain runs one server until SIGTERM or SIGINT.
func serveMain(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	name := fs.String("server", "", "server to run")
	host := fs.String("host", "127.0.0.1", "address to listen on")
	port := fs.Int("port", 0, "port to listen on")
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return s.Serve(ctx, *host, *port, func() { fmt.Println(readyLine) })
}
