package servers

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/graftgql/graft/bench/upstream"
)

// ReadyLine is what a server process prints on stdout once it accepts
// connections.
const ReadyLine = "ready"

// Main runs one server of this binary until SIGTERM or SIGINT, given the
// arguments of `bench serve` (or of cmd/benchserve, a solo build):
// -server NAME -port N, -upstream URL for the upstream servers, and
// -cpuprofile FILE and -allocprofile FILE for profiles of the run.
func Main(args []string) error {
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
	s, ok := Lookup(*name)
	if !ok {
		return fmt.Errorf("unknown server %q", *name)
	}
	if *port <= 0 {
		return fmt.Errorf("-port is required")
	}
	if s.Serve == nil {
		return fmt.Errorf("%s is not a Go server", *name)
	}
	if *cpuProfile != "" || *allocProfile != "" {
		if !profiling {
			return fmt.Errorf("-cpuprofile and -allocprofile need a build with profiling (a solo build: the tag profile)")
		}
		stopCPU, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return err
		}
		defer stopCPU()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	env := Env{Host: *host, Port: *port}
	if *upstreamURL != "" {
		env.Upstream = upstream.NewClient(*upstreamURL)
	}
	err := s.Serve(ctx, env, func() { fmt.Println(ReadyLine) })
	if *allocProfile != "" {
		if perr := writeAllocProfile(*allocProfile); perr != nil && err == nil {
			err = perr
		}
	}
	return err
}
