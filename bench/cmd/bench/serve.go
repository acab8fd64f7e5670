package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
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
	err := s.Serve(ctx, *host, *port, func() { fmt.Println(readyLine) })
	if *allocProfile != "" {
		if perr := writeAllocProfile(*allocProfile); perr != nil && err == nil {
			err = perr
		}
	}
	return err
}

func writeAllocProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return pprof.Lookup("allocs").WriteTo(f, 0)
}
