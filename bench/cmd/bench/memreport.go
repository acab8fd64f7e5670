package main

import (
	"fmt"
	"strings"

	"github.com/graftgql/graft/bench/servers"
)

// anonCell is the anonymous memory of s in MiB, "–" when not read.
func anonCell(s summary) string {
	if s.anon <= 0 {
		return "–"
	}
	return mib(s.anon)
}

// runsFrom says what server s ran from: a binary holding it alone, one
// linking every Go server, or a program that is not Go.
func (m *measurement) runsFrom(s string) string {
	switch {
	case m.exe[s] == "":
		return "–"
	case m.binary[s] == 0:
		return "not Go"
	case servers.IsShipped(s):
		return "cmd/graft"
	case m.alone[s]:
		return "alone"
	default:
		return "every Go server"
	}
}

// peakMarkdown is the peak memory section: per server, what it ran from
// and that binary's size, the peak resident set over the run (VmHWM) and
// the highest anonymous memory read after a measurement.
func (m *measurement) peakMarkdown() string {
	var b strings.Builder
	b.WriteString("\n## Peak memory\n\n")
	b.WriteString("Peak RSS is VmHWM over the whole run. Anon is the highest anonymous memory (RssAnon: heap, stacks, the runtime) read after a measurement: what the server itself holds. The rest of the resident set is mostly pages of the executable, so it grows with the binary: \"alone\" is a binary holding that server only, as a team deploys it; \"every Go server\" is a binary linking all of them (and their libraries).\n\n")
	b.WriteString("| server | runs from | binary MiB | peak RSS MiB | highest anon MiB |\n|---|---|---:|---:|---:|\n")
	for _, s := range m.servers {
		bin := "–"
		if n := m.binary[s]; n > 0 {
			bin = mib(n)
		}
		anon := "–"
		if a := m.peakAnon[s]; a > 0 {
			anon = mib(a)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", s, m.runsFrom(s), bin, mib(m.peakRSS[s]), anon)
	}
	return b.String()
}

// buildNote is the method line saying what the Go servers ran from.
func (m *measurement) buildNote() string {
	var alone, shared, shipped []string
	for _, s := range m.servers {
		switch m.runsFrom(s) {
		case "alone":
			if m.base != nil && m.base.early && s == baseName("graft", m.base.short) {
				continue // said below
			}
			alone = append(alone, s)
		case "every Go server":
			shared = append(shared, s)
		case "cmd/graft":
			shipped = append(shipped, s)
		}
	}
	var b strings.Builder
	if len(shipped) > 0 {
		fmt.Fprintf(&b, "- %s run cmd/graft itself (`go build ./cmd/graft`, static), the ready-to-run server as a user starts it: `GRAFT_EXAMPLE=blog` with its defaults (access log in text to standard error, read and discarded by the load generator as a log collector would; request IDs, CORS, CSRF protection, limits, GraphiQL, automatic persisted queries in memory); each entry but graft-shipped turns the access log off (`ACCESS_LOG=false`) and differs from %s by one setting: `METRICS_ENABLED=true`, or tracing with `OTEL_TRACES_SAMPLER=parentbased_traceidratio` at 0.01 exporting over OTLP/HTTP to a receiver in the load generator that discards the spans. They start afresh each round, so that the rounds hold as many processes of each: two processes of one binary and configuration differ by a few per cent in CPU per request.\n", strings.Join(shipped, ", "), servers.ShippedBase)
		if m.opts.alternateServers > 0 {
			fmt.Fprintf(&b, "- Each round also serves q1 from %s and each other cmd/graft entry in turn, %d alternating blocks of %s per pair, each server with %d connections of its own that send only in its blocks, both servers' CPU time read around every pair of blocks (what a server does in the other's block, such as exporting spans, is its own): the cost targets are judged on the median over those pairs of the CPU per request ratio, the rounds' ratio beside.\n",
				servers.ShippedBase, m.opts.alternateServers, m.opts.block, m.opts.conns)
		}
	}
	if len(alone) > 0 {
		fmt.Fprintf(&b, "- Each Go server runs from a binary holding it alone, `go build -tags solo,solo_NAME ./cmd/benchserve` (NAME with '-' as '_'), as a team would deploy it, built once per run (kept between runs and relinked only when its sources change): %s. The load generator is the bench binary.\n", strings.Join(alone, ", "))
	}
	if m.base != nil && m.base.early {
		fmt.Fprintf(&b, "- %s predates cmd/benchserve: it runs alone from a graft-only program the bench writes against that tree's API, serving what its bench's graft entry served (the blog example, automatic persisted queries in memory, graft.Serve).\n", baseName("graft", m.base.short))
	}
	if len(shared) > 0 {
		fmt.Fprintf(&b, "- From a binary linking every Go server and its libraries (`bench serve`): %s. Their RSS includes the pages of that larger executable; their anon figures compare with the others'.\n", strings.Join(shared, ", "))
	}
	return b.String()
}
