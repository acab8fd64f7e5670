// Command bench compares graft with the Go GraphQL peers over HTTP on
// loopback.
//
//	go run ./cmd/bench          full run; writes results/YYYY-MM-DD.md
//	go run ./cmd/bench -smoke   one short round with the correctness checks, for CI
//	go run ./cmd/bench -base REF   also graft as of REF (graft@<short hash>), before and after
//	bench serve -server NAME -port N [-upstream URL]   (the load generator's children)
//	bench upstream -port N              (the upstream service of q5 and q6)
//
// Each server runs as a child process pinned to one CPU with GOMAXPROCS=1;
// the load generator runs on another CPU. Before every measurement each
// server's answer is compared with the ceiling's; a wrong answer stops the
// run with a non-zero exit and is never measured.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		if err := serveMain(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "bench serve:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "upstream" {
		if err := upstreamMain(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "bench upstream:", err)
			os.Exit(1)
		}
		return
	}
	if err := runMain(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// options configures one run of the load generator.
type options struct {
	servers  []string
	queries  []string
	rounds   int
	duration time.Duration
	warmup   time.Duration
	// firstWarmup is the warm-up of each server, query and shape in the
	// first round, long enough for a JIT (V8, graphql-jit) to settle.
	firstWarmup time.Duration
	conns       int
	connsHigh   int
	// alternate is the number of alternating blocks per round of each
	// hash-only query against its full query (see loadAlternating), and
	// block the measured length of one; 0 blocks for none.
	alternate int
	block     time.Duration
	// alternateServers is the number of alternating blocks per round in
	// which each cmd/graft entry is measured against graft-shipped-nolog
	// (measureServerPairs); 0 for none.
	alternateServers int
	connsLow         int
	serverCPU        int
	clientCPU        int
	out              string
	smoke            bool
	inProcess        bool
	benchtime        string
	profile          string
	// solo runs each Go server from a binary holding it alone
	// (cmd/benchserve built with its solo tags), not from this one.
	solo bool
	// base is a git ref of this repository whose graft is measured beside
	// today's (graft@<short hash>); "" for none.
	base string
	args []string
}

func parseOptions(args []string) (options, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	var o options
	var servers, queries string
	fs.BoolVar(&o.smoke, "smoke", false, "one short round with correctness checks, no report file (for CI)")
	fs.StringVar(&servers, "servers", "", "comma-separated servers to run (default: all)")
	fs.StringVar(&queries, "queries", "q1,q2,q3,q4,q1-apq,q3-apq,q5,q6,q7", "comma-separated queries to run (q1-apq, q3-apq: hash-only persisted queries; q5, q6, q7: through the upstream service)")
	fs.IntVar(&o.rounds, "rounds", 3, "rounds; each round measures every server on every query")
	fs.DurationVar(&o.duration, "duration", 2*time.Second, "measured time per server, query and round")
	fs.DurationVar(&o.warmup, "warmup", 500*time.Millisecond, "unmeasured load before each measurement")
	fs.DurationVar(&o.firstWarmup, "first-warmup", 2*time.Second, "unmeasured load before each measurement of the first round (JITs settle)")
	fs.IntVar(&o.conns, "conns", 32, "concurrent keep-alive connections of the main load shape")
	fs.IntVar(&o.connsHigh, "conns-high", 256, "connections of the second load shape, measured for every query (0: none)")
	fs.IntVar(&o.connsLow, "conns-low", 1, "connections of the latency shape, measured for the upstream queries (0: none)")
	fs.IntVar(&o.alternate, "alternate", 160, "blocks per round in which graft and the ceiling serve each hash-only query and its full query in turn, on the same connections, for the hash-only target (a multiple of 4; 0: none)")
	fs.DurationVar(&o.block, "block", 50*time.Millisecond, "measured length of one alternating block")
	fs.IntVar(&o.alternateServers, "alternate-servers", 40, "blocks per round in which cmd/graft with the access log, metrics or tracing and cmd/graft without serve q1 in turn, for the cost targets (a multiple of 4; 0: none)")
	fs.IntVar(&o.serverCPU, "server-cpu", 1, "CPU the servers are pinned to")
	fs.IntVar(&o.clientCPU, "client-cpu", 0, "CPU the load generator is pinned to")
	fs.BoolVar(&o.inProcess, "inprocess", true, "also run the in-process benchmarks (go test -bench ./inprocess) for the report (full runs only)")
	fs.StringVar(&o.benchtime, "benchtime", "1s", "-benchtime of the in-process benchmarks")
	fs.BoolVar(&o.solo, "solo", true, "run each Go server from a binary of its own (cmd/benchserve built with the tags solo and solo_NAME), as a team deploys it; false: every Go server from this binary")
	fs.StringVar(&o.profile, "profile", "", "folder where each server writes CPU and allocation profiles of the run (go tool pprof)")
	fs.StringVar(&o.base, "base", "", "a git commit, tag or branch of this repository: its graft, and each other graft entry selected that it serves, runs as NAME@<short hash> beside today's, with a before-and-after table")
	fs.StringVar(&o.out, "out", "results", "folder for the dated markdown report (full runs only)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.smoke {
		// Correctness first: the main load shape only, unless asked.
		o.rounds, o.duration, o.warmup, o.firstWarmup, o.inProcess = 1, 300*time.Millisecond, 100*time.Millisecond, 100*time.Millisecond, false
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if !set["alternate"] {
			o.alternate = 4
		}
		if !set["alternate-servers"] {
			o.alternateServers = 4
		}
		if !set["conns-high"] {
			o.connsHigh = 0
		}
		if !set["conns-low"] {
			o.connsLow = 0
		}
	}
	if servers != "" {
		o.servers = strings.Split(servers, ",")
	}
	o.queries = strings.Split(queries, ",")
	if o.base != "" {
		if err := checkRef(o.base); err != nil {
			return o, err
		}
	}
	if o.rounds < 1 || o.duration <= 0 || o.warmup < 0 || o.conns < 1 || o.connsHigh < 0 || o.connsLow < 0 {
		return o, fmt.Errorf("rounds, duration and conns must be positive")
	}
	if o.alternate < 0 || o.alternate%4 != 0 || o.alternateServers < 0 || o.alternateServers%4 != 0 || (o.alternate+o.alternateServers > 0 && o.block <= 0) {
		return o, fmt.Errorf("-alternate and -alternate-servers must be multiples of 4 (0: none) and -block positive")
	}
	o.args = args
	return o, nil
}

func runMain(args []string) error {
	o, err := parseOptions(args)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	return run(ctx, log, o)
}
