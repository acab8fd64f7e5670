package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/graftgql/graft/bench/workload"
)

// summary is the median over the rounds of one server on one query.
type summary struct {
	rps       float64
	p50, p99  time.Duration
	cpuPerReq time.Duration
	rss       int64
	anon      int64
	timeouts  int // the most in one round
	ok        bool
}

func median[T float64 | time.Duration | int64](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func (m *measurement) summary(server, query string) summary {
	ce := m.cells[[2]string{server, query}]
	if ce == nil || len(ce.samples) == 0 {
		return summary{}
	}
	var rps []float64
	var p50, p99, cpu []time.Duration
	var rss, anon []int64
	for _, s := range ce.samples {
		rps = append(rps, s.rps)
		p50 = append(p50, s.p50)
		p99 = append(p99, s.p99)
		cpu = append(cpu, s.cpuPerReq)
		rss = append(rss, s.rss)
		anon = append(anon, s.anon)
	}
	to := 0
	for _, s := range ce.samples {
		to = max(to, s.timeouts)
	}
	return summary{rps: median(rps), p50: median(p50), p99: median(p99), cpuPerReq: median(cpu), rss: median(rss), anon: median(anon), timeouts: to, ok: true}
}

// pairedCPURounds is, for each round, server's CPU per request on query a
// over its CPU per request on query b in the same round, for two queries
// measured back to back (see pairPersisted): each round's pair shares the
// machine's state, so the ratio cancels most of its drift. It is nil
// unless both were measured in every round.
func (m *measurement) pairedCPURounds(server, a, b string) []float64 {
	return m.pairedRounds([2]string{server, a}, [2]string{server, b}, func(s sample) float64 { return float64(s.cpuPerReq) })
}

// pairedRPSRatio is the median over the rounds of server's req/s on query
// over base's in the same round, for two servers measured back to back
// (see judgedTogether). ok is false unless both were measured in every
// round.
func (m *measurement) pairedRPSRatio(server, base, query string) (float64, bool) {
	return m.paired([2]string{server, query}, [2]string{base, query}, func(s sample) float64 { return s.rps })
}

// paired is the median over the rounds of of(a's sample) over of(b's
// sample) of the same round.
func (m *measurement) paired(a, b [2]string, of func(sample) float64) (float64, bool) {
	rs := m.pairedRounds(a, b, of)
	if rs == nil {
		return 0, false
	}
	return median(rs), true
}

// pairedRounds is each round's of(a's sample) over of(b's sample), in
// round order; nil unless both were measured in every round.
func (m *measurement) pairedRounds(a, b [2]string, of func(sample) float64) []float64 {
	ca, cb := m.cells[a], m.cells[b]
	if ca == nil || cb == nil || len(ca.samples) == 0 || len(ca.samples) != len(cb.samples) {
		return nil
	}
	rs := make([]float64, 0, len(ca.samples))
	for i, sa := range ca.samples {
		d := of(cb.samples[i])
		if d <= 0 {
			return nil
		}
		rs = append(rs, of(sa)/d)
	}
	return rs
}

func ratio(a, b summary) string {
	if !a.ok || !b.ok || b.rps == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", a.rps/b.rps)
}

// cpuRatio is ceiling CPU per request over a's.
func cpuRatio(a, ceiling summary) string {
	if !a.ok || !ceiling.ok || a.cpuPerReq <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", float64(ceiling.cpuPerReq)/float64(a.cpuPerReq))
}

func micros(d time.Duration) string {
	return fmt.Sprintf("%.0f", float64(d)/float64(time.Microsecond))
}

// p99Cell is the p99 in µs, marked when requests timed out, which the
// percentiles do not count.
func p99Cell(s summary) string {
	if s.timeouts > 0 {
		return fmt.Sprintf("%s (%d timed out after %s)", micros(s.p99), s.timeouts, requestTimeout)
	}
	return micros(s.p99)
}

func mib(b int64) string { return fmt.Sprintf("%.1f", float64(b)/(1<<20)) }

// memQueries and upQueries split the run's queries into those served
// from memory and those served through the upstream.
func (m *measurement) memQueries() (out []workload.Query) {
	for _, q := range m.queries {
		if !q.Upstream {
			out = append(out, q)
		}
	}
	return out
}

func (m *measurement) upQueries() (out []workload.Query) {
	for _, q := range m.queries {
		if q.Upstream {
			out = append(out, q)
		}
	}
	return out
}

// rowsFor returns the servers that run any of qs.
func (m *measurement) rowsFor(qs []workload.Query) (out []string) {
	for _, s := range m.servers {
		if slices.ContainsFunc(qs, func(q workload.Query) bool { return m.runs(s, q.Name) }) {
			out = append(out, s)
		}
	}
	return out
}

// ratioTable renders one row per server and one column per query of cell(server, query).
func ratioTable(b *strings.Builder, rows []string, qs []workload.Query, cell func(s string, q workload.Query) string) {
	b.WriteString("| server |")
	for _, q := range qs {
		fmt.Fprintf(b, " %s |", q.Name)
	}
	b.WriteString("\n|---|")
	for range qs {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	for _, s := range rows {
		fmt.Fprintf(b, "| %s |", s)
		for _, q := range qs {
			fmt.Fprintf(b, " %s |", cell(s, q))
		}
		b.WriteString("\n")
	}
}

// notMeasured says why a cell has no figures.
func (m *measurement) notMeasured(s, q string) string {
	if ce := m.cells[[2]string{s, q}]; ce != nil && ce.skipped != "" {
		return "not measured (" + ce.skipped + ")"
	}
	return "not measured"
}

// mercuriusFor names the Mercurius entry to compare server with: the
// upstream one for an upstream server (graft-upstream-raw included).
func mercuriusFor(server string) string {
	if strings.Contains(server, "-upstream") {
		return "mercurius-upstream"
	}
	return "mercurius"
}

// markdown renders the report.
func (m *measurement) markdown() string {
	var b strings.Builder
	o := m.opts
	kind := "Full run"
	if o.smoke {
		kind = "Smoke run (one short round: figures are indicative only)"
	}
	fmt.Fprintf(&b, "# graft benchmark, %s\n\n%s, %s.\n\n", m.started.UTC().Format("2006-01-02 15:04 UTC"), kind, m.took.Round(time.Second))
	mem, up := m.memQueries(), m.upQueries()
	memRows := m.rowsFor(mem)
	if len(mem) > 0 {
		fmt.Fprintf(&b, "## Throughput as a ratio to the ceiling (%d connections)\n\n", o.conns)
		ratioTable(&b, memRows, mem, func(s string, q workload.Query) string {
			return ratio(m.summary(s, q.Name), m.summary("ceiling", q.Name))
		})
	}
	b.WriteString("\n## graft's targets, judged on this run\n\n")
	b.WriteString(m.targetsMarkdown())
	if slices.Contains(m.servers, "mercurius") || slices.Contains(m.servers, "mercurius-upstream") {
		fmt.Fprintf(&b, "\n## graft's throughput as a ratio to Mercurius with graphql-jit (%d connections)\n\n", o.conns)
		var rows []string
		for _, s := range []string{"graft", "graft-fasthttp"} {
			if slices.Contains(m.servers, s) {
				rows = append(rows, s)
			}
		}
		for _, s := range m.servers {
			if strings.HasPrefix(s, "graft-upstream") && !strings.Contains(s, "@") {
				rows = append(rows, s)
			}
		}
		ratioTable(&b, rows, m.queries, func(s string, q workload.Query) string {
			if !m.runs(s, q.Name) {
				return ""
			}
			return ratio(m.summary(s, q.Name), m.summary(mercuriusFor(s), q.Name))
		})
	}
	if len(mem) > 0 {
		b.WriteString("\n## Server CPU per request as a ratio: the ceiling's CPU per request over the server's\n\n")
		b.WriteString("What the throughput ratio would be if the server had its core to itself; it is the steadier figure on a busy machine.\n\n")
		ratioTable(&b, memRows, mem, func(s string, q workload.Query) string {
			return cpuRatio(m.summary(s, q.Name), m.summary("ceiling", q.Name))
		})
	}
	if len(mem) > 0 && slices.Contains(m.servers, "ceiling-fasthttp") && slices.Contains(m.servers, "graft-fasthttp") {
		b.WriteString("\n## graft-fasthttp against the fasthttp ceiling\n\n")
		b.WriteString("graft over fasthttp as a ratio to ceiling-fasthttp (canned answers through fasthttp, its own limit): throughput, then the ceiling's CPU per request over graft's.\n\n")
		ratioTable(&b, []string{"graft-fasthttp req/s", "graft-fasthttp CPU"}, mem, func(s string, q workload.Query) string {
			g, c := m.summary("graft-fasthttp", q.Name), m.summary("ceiling-fasthttp", q.Name)
			if strings.HasSuffix(s, "CPU") {
				return cpuRatio(g, c)
			}
			return ratio(g, c)
		})
	}
	for _, q := range mem {
		fmt.Fprintf(&b, "\n## %s: %s (%d connections)\n\n", q.Name, q.Description, o.conns)
		b.WriteString("| server | req/s | × ceiling | × gqlgen | × mercurius | p50 µs | p99 µs | server CPU µs/req | RSS MiB | anon MiB |\n")
		b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		ceil, gql, merc := m.summary("ceiling", q.Name), m.summary("gqlgen", q.Name), m.summary("mercurius", q.Name)
		for _, s := range memRows {
			sm := m.summary(s, q.Name)
			if !sm.ok {
				fmt.Fprintf(&b, "| %s | %s | | | | | | | | |\n", s, m.notMeasured(s, q.Name))
				continue
			}
			fmt.Fprintf(&b, "| %s | %.0f | %s | %s | %s | %s | %s | %s | %s | %s |\n", s, sm.rps, ratio(sm, ceil), ratio(sm, gql), ratio(sm, merc),
				micros(sm.p50), p99Cell(sm), micros(sm.cpuPerReq), mib(sm.rss), anonCell(sm))
		}
	}
	for _, q := range up {
		fmt.Fprintf(&b, "\n## %s: %s\n\n", q.Name, q.Description)
		low := ""
		if o.connsLow > 0 {
			low = fmt.Sprintf(" p50 µs at %d conn |", o.connsLow)
		}
		fmt.Fprintf(&b, "At %d connections; upstream calls per request counted by the upstream service, for one checked request and on average under load.\n\n", o.conns)
		fmt.Fprintf(&b, "| server | upstream calls/req | calls/req under load | req/s | × gqlgen | p50 µs | p99 µs |%s server CPU µs/req | RSS MiB | anon MiB |\n", low)
		b.WriteString("|---|---:|---:|---:|---:|---:|---:|" + strings.Repeat("---:|", len(strings.Split(low, "|"))-1) + "---:|---:|---:|\n")
		gqlName := "gqlgen-upstream"
		if q.Tailcall {
			gqlName = "gqlgen-tailcall"
		}
		gql := m.summary(gqlName, q.Name)
		for _, s := range m.rowsFor([]workload.Query{q}) {
			sm := m.summary(s, q.Name)
			if !sm.ok {
				fmt.Fprintf(&b, "| %s | %s | | | | | |%s | | |\n", s, m.notMeasured(s, q.Name), strings.Repeat(" |", len(strings.Split(low, "|"))-1))
				continue
			}
			one := "–"
			if ce := m.cells[[2]string{s, q.Name}]; ce != nil && ce.oneCalls >= 0 {
				one = strconv.FormatInt(ce.oneCalls, 10)
			}
			lowCell := ""
			if o.connsLow > 0 {
				if l := m.summary(s, m.shapeQuery(q.Name, o.connsLow)); l.ok {
					lowCell = " " + micros(l.p50) + " |"
				} else {
					lowCell = " – |"
				}
			}
			fmt.Fprintf(&b, "| %s | %s | %.2f | %.0f | %s | %s | %s |%s %s | %s | %s |\n", s, one, m.callsUnderLoad(s, q.Name), sm.rps, ratio(sm, gql),
				micros(sm.p50), p99Cell(sm), lowCell, micros(sm.cpuPerReq), mib(sm.rss), anonCell(sm))
		}
	}
	b.WriteString(m.alternatedMarkdown())
	if o.connsHigh > 0 && o.connsHigh != o.conns {
		fmt.Fprintf(&b, "\n## Second load shape: %d connections\n\n", o.connsHigh)
		b.WriteString("Queueing, scheduler and GC pressure show here. Medians over the rounds; RSS is VmRSS after the measurement, anon its anonymous part (heap, stacks, runtime).\n")
		for _, q := range m.queries {
			fmt.Fprintf(&b, "\n### %s at %d connections\n\n| server | req/s | p50 µs | p99 µs | RSS MiB | anon MiB |\n|---|---:|---:|---:|---:|---:|\n", q.Name, o.connsHigh)
			name := m.shapeQuery(q.Name, o.connsHigh)
			for _, s := range m.rowsFor([]workload.Query{q}) {
				sm := m.summary(s, name)
				if !sm.ok {
					fmt.Fprintf(&b, "| %s | %s | | | | |\n", s, m.notMeasured(s, name))
					continue
				}
				fmt.Fprintf(&b, "| %s | %.0f | %s | %s | %s | %s |\n", s, sm.rps, micros(sm.p50), p99Cell(sm), mib(sm.rss), anonCell(sm))
			}
		}
	}
	b.WriteString(m.peakMarkdown())
	if m.inProc != nil {
		b.WriteString("\n## In process (no HTTP)\n\n")
		if m.inProc.skipped != "" {
			fmt.Fprintf(&b, "In-process benchmarks %s.\n", m.inProc.skipped)
		} else {
			fmt.Fprintf(&b, "`cd bench && %s`: cold = a document text the engine has not seen (parse, validate, execute); warm = the engine's document cache (graphql-go: a document parsed and validated once by the caller; graph-gophers has no cache). Each op returns the whole JSON response.\n\n", m.inProc.command)
			b.WriteString(m.inProc.table())
			b.WriteString("\n<details><summary>raw output (benchstat input)</summary>\n\n```\n" + m.inProc.output + "```\n\n</details>\n")
			if m.inProc.repeats != "" {
				fmt.Fprintf(&b, "\nThe in-process target is judged on the medians of %d further runs, `cd bench && %s`:\n\n```\n%s```\n", judgedRepeats, m.inProc.repeatCommand, m.inProc.repeats)
			}
		}
	}
	if m.base != nil {
		b.WriteString(m.beforeAfterMarkdown())
	}
	b.WriteString("\n## Machine and method\n\n")
	fmt.Fprintf(&b, "- CPU: %s; %d CPUs (nproc); kernel %s\n", cpuModel(), runtime.NumCPU(), kernel())
	fmt.Fprintf(&b, "- Go: %s %s/%s; Node: %s; graft at commit %s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, nodeVersion(), commit())
	if m.base != nil {
		fmt.Fprintf(&b, "- Before: graft at %s, commit %s, served by that tree's own bench binary (built in a temporary git worktree, removed afterwards) as %s.\n", m.base.ref, m.base.commit, baseName("graft", m.base.short))
	}
	fmt.Fprintf(&b, "- Load average (1, 5, 15 min) at the start: %s; at the end: %s. Much above 1 means other work shared the CPUs and absolute figures are low.\n", m.loadStart, loadAverage())
	if m.pinned {
		fmt.Fprintf(&b, "- Each server a child process pinned to CPU %d with GOMAXPROCS=1 (Node: one event loop); the load generator and the upstream service pinned to CPU %d.\n", o.serverCPU, o.clientCPU)
	} else {
		b.WriteString("- Not pinned (taskset or a second CPU was missing): figures are less reliable.\n")
	}
	fmt.Fprintf(&b, "- Keep-alive HTTP/1.1 connections on loopback, each sending the next POST when the previous answer is read: %d for the main tables", o.conns)
	if o.connsHigh > 0 && o.connsHigh != o.conns {
		fmt.Fprintf(&b, ", %d for the second load shape", o.connsHigh)
	}
	if o.connsLow > 0 && len(up) > 0 {
		fmt.Fprintf(&b, ", %d for the upstream queries' latency at rest", o.connsLow)
	}
	b.WriteString(".\n")
	fmt.Fprintf(&b, "- %d round(s); in each, every query at every load shape on every server (server order rotated each round, the servers a target compares measured back to back in an order reversed each round and judged by the median over the rounds of each round's ratio; each hash-only query measured right beside its full query on the same server and shape, after it in odd rounds and before it in even ones, and compared with it by their paired CPU ratio), %s warm-up (%s in the first round, so JITs settle) then %s measured; requests still in flight at the end are awaited and counted. Figures are medians over the rounds.\n", o.rounds, o.warmup, max(o.warmup, o.firstWarmup), o.duration)
	if o.alternate > 0 {
		fmt.Fprintf(&b, "- After those two, in each round, %s served the full query and the hash-only one in %d alternating blocks (see the section on them), on the same %d connections: %s measured after %s in which the previous block's requests finish. The hash-only target is judged on these.\n", strings.Join(alternatedServers, " and "), o.alternate, o.conns, o.block, alternateSettle)
	}
	b.WriteString("- The ceiling reads the body and writes the precomputed answer found by the body's exact bytes, nothing else; ceiling-decode also decodes the body with encoding/json (the earlier ceiling).\n")
	b.WriteString("- The upstream service (q5, q6, q7) answers after 1 ms per call and counts its calls; the in-memory servers do not run q5, q6 and q7, the upstream servers run only q5 and q6, the Tailcall replica's servers only q7 (also measured at 64 connections, where deduplication is judged; × gqlgen is against gqlgen-tailcall there).\n")
	b.WriteString("- Before every measurement the server's answer is compared with the ceiling's precomputed one (graft byte for byte, peers after normalising key order; q4 only for shape).\n")
	b.WriteString("- server CPU µs/req: the child's CPU time over the measured period (its process CPU clock, user plus system time in nanoseconds) divided by the requests answered. RSS: VmRSS after the measurement; anon: its anonymous part (RssAnon: heap, stacks and the runtime's own memory), the rest being mostly pages of the executable.\n")
	b.WriteString(m.buildNote())
	b.WriteString("\n")
	fmt.Fprintf(&b, "Reproduce: `cd bench && go run ./cmd/bench %s`\n", strings.Join(o.args, " "))
	return b.String()
}

// callsUnderLoad is the median upstream calls per request under load.
func (m *measurement) callsUnderLoad(server, query string) float64 {
	ce := m.cells[[2]string{server, query}]
	if ce == nil {
		return 0
	}
	var xs []float64
	for _, s := range ce.samples {
		xs = append(xs, s.calls)
	}
	return median(xs)
}

// nodeVersion is `node --version`, or "none".
func nodeVersion() string {
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return "none"
	}
	return strings.TrimSpace(string(out))
}

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// commit names the checked-out graft commit, marked dirty when the work
// tree has changes.
func commit() string {
	out, err := exec.Command("git", "describe", "--always", "--dirty").Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}

// loadAverage returns the first three fields of /proc/loadavg.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func kernel() string {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(b))
}

func timeOf(ns int64) time.Duration { return time.Duration(ns) }
