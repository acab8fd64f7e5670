// Command benchserve runs one benchmarked server, as `bench serve` does:
//
//	benchserve -server NAME -port N [-upstream URL] [-cpuprofile F] [-allocprofile F]
//
// The load generator (cmd/bench) builds it once per Go server with the
// tags solo and that server's tag (servers.SoloTag), so each server runs
// from a binary holding it alone, as a team would deploy it, and its
// memory is not that of every peer linked into one binary:
//
//	go build -tags solo,solo_graft -o /tmp/graft ./cmd/benchserve
//
// Built without tags it holds every Go server, like `bench serve`.
package main

import (
	"fmt"
	"os"

	"github.com/graftgql/graft/bench/servers"
)

func main() {
	if err := servers.Main(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "benchserve:", err)
		os.Exit(1)
	}
}
