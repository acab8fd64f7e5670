package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"time"
)

// summary is the median over the rounds of one server on one query.
type summary struct {
	rps       float64
	p50, p99  time.Duration
	cpuPerReq time.Duration
	rss       int64
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
	var rss []int64
	for _, s := range ce.samples {
		rps = append(rps, s.rps)
		p50 = append(p50, s.p50)
		p99 = append(p99, s.p99)
		cpu = append(cpu, s.cpuPerReq)
		rss = append(rss, s.rss)
	}
	return summary{rps: median(rps), p50: median(p50), p99: median(p99), cpuPerReq: median(cpu), rss: median(rss), ok: true}
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

func mib(b int64) string { return fmt.Sprintf("%.1f", float64(b)/(1<<20)) }

// markdown renders the report.
func (m *measurement) markdown() string {
	var b strings.Builder
	o := m.opts
	kind := "Full run"
	if o.smoke {
		kind = "Smoke run (one short round: figures are indicative only)"
	}
	fmt.Fprintf(&b, "# graft benchmark, %s\n\n%s, %s.\n\n", m.started.UTC().Format("2006-01-02 15:04 UTC"), kind, m.took.Round(time.Second))
	b.WriteString("## Throughput as a ratio to the ceiling\n\n| server |")
	for _, q := range m.queries {
		fmt.Fprintf(&b, " %s |", q.Name)
	}
	b.WriteString("\n|---|")
	for range m.queries {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	for _, s := range m.servers {
		fmt.Fprintf(&b, "| %s |", s)
		for _, q := range m.queries {
			fmt.Fprintf(&b, " %s |", ratio(m.summary(s, q.Name), m.summary("ceiling", q.Name)))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n## graft's targets, judged on this run\n\n")
	b.WriteString(m.targetsMarkdown())
	b.WriteString("\n## Server CPU per request as a ratio: the ceiling's CPU per request over the server's\n\n")
	b.WriteString("What the throughput ratio would be if the server had its core to itself; it is the steadier figure on a busy machine.\n\n| server |")
	for _, q := range m.queries {
		fmt.Fprintf(&b, " %s |", q.Name)
	}
	b.WriteString("\n|---|")
	for range m.queries {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	for _, s := range m.servers {
		fmt.Fprintf(&b, "| %s |", s)
		for _, q := range m.queries {
			fmt.Fprintf(&b, " %s |", cpuRatio(m.summary(s, q.Name), m.summary("ceiling", q.Name)))
		}
		b.WriteString("\n")
	}
	for _, q := range m.queries {
		fmt.Fprintf(&b, "\n## %s: %s\n\n", q.Name, q.Description)
		b.WriteString("| server | req/s | × ceiling | × gqlgen | p50 µs | p99 µs | server CPU µs/req | RSS MiB |\n")
		b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|\n")
		ceil, gql := m.summary("ceiling", q.Name), m.summary("gqlgen", q.Name)
		for _, s := range m.servers {
			sm := m.summary(s, q.Name)
			if !sm.ok {
				why := "not measured"
				if ce := m.cells[[2]string{s, q.Name}]; ce != nil && ce.skipped != "" {
					why = "not measured (" + ce.skipped + ")"
				}
				fmt.Fprintf(&b, "| %s | %s | | | | | | |\n", s, why)
				continue
			}
			fmt.Fprintf(&b, "| %s | %.0f | %s | %s | %s | %s | %s | %s |\n", s, sm.rps, ratio(sm, ceil), ratio(sm, gql),
				micros(sm.p50), micros(sm.p99), micros(sm.cpuPerReq), mib(sm.rss))
		}
	}
	b.WriteString("\n## Peak memory (VmHWM over the whole run)\n\n| server | MiB |\n|---|---:|\n")
	for _, s := range m.servers {
		fmt.Fprintf(&b, "| %s | %s |\n", s, mib(m.peakRSS[s]))
	}
	if m.inProc != nil {
		b.WriteString("\n## In process (no HTTP)\n\n")
		if m.inProc.skipped != "" {
			fmt.Fprintf(&b, "In-process benchmarks %s.\n", m.inProc.skipped)
		} else {
			fmt.Fprintf(&b, "`cd bench && %s`: cold = a document text the engine has not seen (parse, validate, execute); warm = the engine's document cache (graphql-go: a document parsed and validated once by the caller; graph-gophers has no cache). Each op returns the whole JSON response.\n\n", m.inProc.command)
			b.WriteString(m.inProc.table())
			b.WriteString("\n<details><summary>raw output (benchstat input)</summary>\n\n```\n" + m.inProc.output + "```\n\n</details>\n")
		}
	}
	b.WriteString("\n## Machine and method\n\n")
	fmt.Fprintf(&b, "- CPU: %s; %d CPUs (nproc); kernel %s\n", cpuModel(), runtime.NumCPU(), kernel())
	fmt.Fprintf(&b, "- Go: %s %s/%s; graft at commit %s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, commit())
	fmt.Fprintf(&b, "- Load average (1, 5, 15 min) at the start: %s; at the end: %s. Much above 1 means other work shared the CPUs and absolute figures are low.\n", m.loadStart, loadAverage())
	if m.pinned {
		fmt.Fprintf(&b, "- Each server a child process pinned to CPU %d with GOMAXPROCS=1; the load generator pinned to CPU %d.\n", o.serverCPU, o.clientCPU)
	} else {
		b.WriteString("- Not pinned (taskset or a second CPU was missing): figures are less reliable.\n")
	}
	fmt.Fprintf(&b, "- %d keep-alive HTTP/1.1 connections on loopback, each sending the next POST when the previous answer is read.\n", o.conns)
	fmt.Fprintf(&b, "- %d round(s); in each, every query on every server (server order rotated each round), %s warm-up then %s measured. Figures are medians over the rounds.\n", o.rounds, o.warmup, o.duration)
	b.WriteString("- Before every measurement the server's answer is compared with the ceiling's precomputed one (graft byte for byte, peers after normalising key order; q4 only for shape).\n")
	b.WriteString("- server CPU µs/req: the child's utime+stime over the measured period (from /proc/PID/stat) divided by the requests answered. RSS: VmRSS after the measurement.\n\n")
	fmt.Fprintf(&b, "Reproduce: `cd bench && go run ./cmd/bench %s`\n", strings.Join(o.args, " "))
	return b.String()
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
