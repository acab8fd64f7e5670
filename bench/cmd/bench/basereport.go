package main

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// baseTargetMax is the most today's graft may spend per request, in server
// CPU, over the base's on q1–q4: within 5%.
const baseTargetMax = 1.05

// baseTargetQueries are the queries the before/after target is judged on.
var baseTargetQueries = []string{"q1", "q2", "q3", "q4"}

// baseInProcessPattern selects graft's in-process benchmarks, the only
// ones a change of graft moves.
const baseInProcessPattern = "/^graft-"

// inProcessAB is the in-process benchmarks of graft run alternately in the
// base tree (before) and in this one (after).
type inProcessAB struct {
	command       string
	before, after []inProcessResult
	skipped       string // why they did not run
}

// runInProcessAB runs graft's in-process benchmarks rounds times in each
// tree, alternating (before, after, after, before, …) so drift on the
// machine falls on both sides.
func runInProcessAB(ctx context.Context, log *slog.Logger, b *baseTree, cpu int, benchtime string, rounds int) inProcessAB {
	var ab inProcessAB
	for r := 0; r < rounds; r++ {
		order := []bool{true, false} // before first
		if r%2 == 1 {
			order = []bool{false, true}
		}
		for _, before := range order {
			dir, side := ".", "after"
			if before {
				dir, side = filepath.Join(b.tree, "bench"), "before"
			}
			log.Info("in-process benchmarks", "round", r+1, "side", side)
			res := goBench(ctx, dir, cpu, benchtime, baseInProcessPattern, 1)
			if res.skipped != "" {
				ab.skipped = fmt.Sprintf("%s (%s tree)", res.skipped, side)
				return ab
			}
			ab.command = res.command
			if before {
				ab.before = append(ab.before, res)
			} else {
				ab.after = append(ab.after, res)
			}
		}
	}
	return ab
}

// benchFigures is one benchmark line's ns/op, B/op and allocs/op.
type benchFigures struct{ ns, bytes, allocs float64 }

// parseBenchLines collects every benchmark line of outs by name, in the
// order first seen.
func parseBenchLines(outs []inProcessResult) (names []string, figs map[string][]benchFigures) {
	figs = map[string][]benchFigures{}
	for _, r := range outs {
		sc := bufio.NewScanner(strings.NewReader(r.output))
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) < 8 || !strings.HasPrefix(f[0], "Benchmark") || f[3] != "ns/op" || f[5] != "B/op" || f[7] != "allocs/op" {
				continue
			}
			ns, err1 := strconv.ParseFloat(f[2], 64)
			by, err2 := strconv.ParseFloat(f[4], 64)
			al, err3 := strconv.ParseFloat(f[6], 64)
			if err1 != nil || err2 != nil || err3 != nil {
				continue
			}
			name := strings.TrimSuffix(f[0], "-1")
			if _, seen := figs[name]; !seen {
				names = append(names, name)
			}
			figs[name] = append(figs[name], benchFigures{ns, by, al})
		}
	}
	return names, figs
}

// medianFigures is the median of each figure over xs.
func medianFigures(xs []benchFigures) (benchFigures, bool) {
	if len(xs) == 0 {
		return benchFigures{}, false
	}
	var ns, by, al []float64
	for _, x := range xs {
		ns, by, al = append(ns, x.ns), append(by, x.bytes), append(al, x.allocs)
	}
	return benchFigures{median(ns), median(by), median(al)}, true
}

// table renders the medians before and after per benchmark, with the
// after/before ratio of ns/op.
func (ab inProcessAB) table() string {
	bn, bf := parseBenchLines(ab.before)
	an, af := parseBenchLines(ab.after)
	names := slices.Clone(bn)
	for _, n := range an {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	num := func(v float64, ok bool) string {
		if !ok {
			return "–"
		}
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	var b strings.Builder
	b.WriteString("| benchmark | ns/op before | ns/op after | ns/op after/before | B/op before | B/op after | allocs/op before | allocs/op after |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, n := range names {
		x, xok := medianFigures(bf[n])
		y, yok := medianFigures(af[n])
		r := "–"
		if xok && yok && x.ns > 0 {
			r = fmt.Sprintf("%.2f", y.ns/x.ns)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", n, num(x.ns, xok), num(y.ns, yok), r,
			num(x.bytes, xok), num(y.bytes, yok), num(x.allocs, xok), num(y.allocs, yok))
	}
	return b.String()
}

// rawOutput is every run's output of one side, benchstat's input.
func rawOutput(rs []inProcessResult) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteString(r.output)
	}
	return b.String()
}

// afterOverBefore is a's figure over b's, "–" when either is missing.
func afterOverBefore(after, before float64, ok bool) string {
	if !ok || before <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", after/before)
}

// baseTargetWhat names the before/after target.
func (m *measurement) baseTargetWhat() string {
	return fmt.Sprintf("graft q1–q4 within 5%% of %s (server CPU µs/req after/before ≤ %.2f)", m.base.ref, baseTargetMax)
}

// baseTarget judges today's graft against graft@<short> on q1–q4 at the
// main load shape by server CPU per request, the figure least moved by
// other work on the machine: met when every ratio is at most
// baseTargetMax. It returns the ratios and the verdict.
func (m *measurement) baseTarget() (figure, verdict string) {
	before := baseName("graft", m.base.short)
	var figs, missing []string
	failed := false
	for _, q := range baseTargetQueries {
		a, b := m.summary("graft", q), m.summary(before, q)
		if !a.ok || !b.ok || b.cpuPerReq <= 0 {
			missing = append(missing, q)
			continue
		}
		r := float64(a.cpuPerReq) / float64(b.cpuPerReq)
		figs = append(figs, fmt.Sprintf("%s %.2f", q, r))
		failed = failed || r > baseTargetMax
	}
	switch {
	case len(figs) == 0:
		return "–", "not measured"
	case failed:
		verdict = "no"
	case len(missing) > 0:
		verdict = "not judged (" + strings.Join(missing, ", ") + " not measured)"
	default:
		verdict = "yes"
	}
	return strings.Join(figs, ", "), verdict
}

// beforeAfterMarkdown renders the comparison of today's graft entries with
// the base's, per query and load shape, and the in-process comparison.
func (m *measurement) beforeAfterMarkdown() string {
	var b strings.Builder
	bs := m.base
	fmt.Fprintf(&b, "\n## Before and after: graft at %s (commit %s) and today\n\n", bs.ref, bs.short)
	fmt.Fprintf(&b, "Before is `NAME@%s`: that commit checked out into a temporary worktree, its own bench binary built and its graft entries served with `serve -server NAME` in the same interleaved rounds as every other server (same pinning, GOMAXPROCS, warm-up, load and answer checks). After is this tree. RSS counts the pages of the executable a server runs from; when before and after run from different kinds of binary (see Peak memory), compare the anonymous part in brackets. Ratios are after over before: req/s above 1 and server CPU per request below 1 mean today is faster.\n", bs.short)
	for _, now := range m.servers {
		before := baseName(now, bs.short)
		if !isGraftEntry(now) || !slices.Contains(m.servers, before) {
			continue
		}
		fmt.Fprintf(&b, "\n### %s (before: %s)\n\n", now, before)
		b.WriteString("| query | req/s before | req/s after | req/s after/before | CPU µs/req before | CPU µs/req after | CPU/req after/before | p50 µs before | p50 µs after | p99 µs before | p99 µs after | RSS (anon) MiB before | RSS (anon) MiB after |\n")
		b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, q := range m.queries {
			if !m.runs(now, q.Name) {
				continue
			}
			for _, conns := range m.shapes(q) {
				name := m.shapeQuery(q.Name, conns)
				x, y := m.summary(before, name), m.summary(now, name)
				label := q.Name
				if conns != m.opts.conns {
					label = fmt.Sprintf("%s at %d conns", q.Name, conns)
				}
				if !x.ok && !y.ok {
					continue
				}
				cell := func(s summary, f func(summary) string) string {
					if !s.ok {
						return "–"
					}
					return f(s)
				}
				rps := func(s summary) string { return fmt.Sprintf("%.0f", s.rps) }
				cpu := func(s summary) string { return fmt.Sprintf("%.1f", float64(s.cpuPerReq)/float64(time.Microsecond)) }
				p50 := func(s summary) string { return micros(s.p50) }
				rss := func(s summary) string { return mib(s.rss) + " (" + anonCell(s) + ")" }
				both := x.ok && y.ok
				fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", label,
					cell(x, rps), cell(y, rps), afterOverBefore(y.rps, x.rps, both),
					cell(x, cpu), cell(y, cpu), afterOverBefore(float64(y.cpuPerReq), float64(x.cpuPerReq), both),
					cell(x, p50), cell(y, p50), cell(x, p99Cell), cell(y, p99Cell), cell(x, rss), cell(y, rss))
			}
		}
	}
	if slices.Contains(m.servers, "graft") {
		fig, verdict := m.baseTarget()
		fmt.Fprintf(&b, "\nTarget: %s: %s; met: %s. Judged on server CPU per request (utime+stime of the server over the requests it answered), which other work on the machine moves least; the req/s ratio is reported beside it.\n", m.baseTargetWhat(), fig, verdict)
	}
	if ab := m.inProcAB; ab != nil {
		fmt.Fprintf(&b, "\n### In process before and after\n\n")
		if ab.skipped != "" {
			fmt.Fprintf(&b, "Not run: %s.\n", ab.skipped)
			return b.String()
		}
		fmt.Fprintf(&b, "`%s` in the base tree's bench module (before) and in this one (after), %d run(s) each, alternating (before, after, after, before, …), pinned like the in-process benchmarks; medians over the runs.\n\n", ab.command, len(ab.after))
		b.WriteString(ab.table())
		b.WriteString("\n<details><summary>raw output before (benchstat's old.txt)</summary>\n\n```\n" + rawOutput(ab.before) + "```\n\n</details>\n")
		b.WriteString("\n<details><summary>raw output after (benchstat's new.txt)</summary>\n\n```\n" + rawOutput(ab.after) + "```\n\n</details>\n")
	}
	return b.String()
}
