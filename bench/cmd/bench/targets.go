package main

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
)

// target is one of graft's performance targets, judged on a run.
type target struct {
	what string
	// judge returns the measured figure and whether the target is met; ok
	// is false with figure "–" when the run lacks the data.
	judge func(m *measurement) (figure string, met, known bool)
}

// The graft entries the upstream targets are judged on: the batching one
// (q5), the one that writes the upstream's raw JSON (q6) and the one that
// decodes the upstream's JSON into structs (q6's baseline).
const (
	graftUpstreamBatch   = "graft-upstream"
	graftUpstreamRaw     = "graft-upstream-raw"
	graftUpstreamStructs = "graft-upstream"
)

// rpsRatio is the median throughput of server over that of base on query.
func (m *measurement) rpsRatio(server, base, query string) (float64, bool) {
	a, b := m.summary(server, query), m.summary(base, query)
	if !a.ok || !b.ok || b.rps == 0 {
		return 0, false
	}
	return a.rps / b.rps, true
}

// judgedRatio is server's throughput over base's on query as a target
// judges it: the paired ratio of their rounds (the two are measured back
// to back, see judgedTogether), or the ratio of the medians when a round
// lacks one of them. The figure shows the medians' ratio beside when it
// differs.
func (m *measurement) judgedRatio(server, base, query, format string) (r float64, figure string, ok bool) {
	med, ok := m.rpsRatio(server, base, query)
	if !ok {
		return 0, "–", false
	}
	r, paired := m.pairedRPSRatio(server, base, query)
	if !paired {
		return med, fmt.Sprintf(format, med), true
	}
	figure = fmt.Sprintf(format, r)
	if mf := fmt.Sprintf(format, med); mf != figure {
		figure += " paired by round; medians " + mf
	}
	return r, figure, true
}

// ratioTarget: graft (net/http) reaches min of the ceiling's req/s on
// query; graft-fasthttp's ratio is reported beside.
func ratioTarget(query string, min float64) target {
	return target{
		what: fmt.Sprintf("graft %s ≥ %.2f of the ceiling's req/s", query, min),
		judge: func(m *measurement) (string, bool, bool) {
			r, fig, ok := m.judgedRatio("graft", "ceiling", query, "%.2f")
			if f, fok := m.rpsRatio("graft-fasthttp", "ceiling", query); fok {
				fig += fmt.Sprintf(" (graft-fasthttp %.2f)", f)
			}
			return fig, r >= min, ok
		},
	}
}

// upstreamRatioTarget: server reaches min × base's req/s on query.
func upstreamRatioTarget(server, base, query string, min float64) target {
	return target{
		what: fmt.Sprintf("%s %s ≥ %.1f× %s's req/s", server, query, min, base),
		judge: func(m *measurement) (string, bool, bool) {
			r, fig, ok := m.judgedRatio(server, base, query, "%.2f×")
			return fig, r >= min, ok
		},
	}
}

// peers are the GraphQL servers graft's latency is held against.
var peers = []string{"gqlgen", "graph-gophers", "graphql-go", "mercurius"}

// lowestTarget: graft's p50 or p99 on query (a shape-qualified cell name)
// is below every peer's.
func lowestTarget(graft, query, label string, pct int, peers []string) target {
	pick := func(s summary) int64 {
		if pct == 50 {
			return int64(s.p50)
		}
		return int64(s.p99)
	}
	return target{
		what: fmt.Sprintf("%s %s p%d below every peer's", graft, label, pct),
		judge: func(m *measurement) (string, bool, bool) {
			g := m.summary(graft, query)
			if !g.ok {
				return "–", false, false
			}
			met, best := true, ""
			var bestV int64
			for _, p := range peers {
				ps := m.summary(p, query)
				if !ps.ok {
					continue
				}
				if pick(ps) <= pick(g) {
					met = false
				}
				if best == "" || pick(ps) < bestV {
					best, bestV = p, pick(ps)
				}
			}
			if best == "" {
				return "–", false, false
			}
			return fmt.Sprintf("%s µs vs %s µs (%s)", micros(timeOf(pick(g))), micros(timeOf(bestV)), best), met, true
		},
	}
}

func targets(conns, connsHigh int) []target {
	ts := []target{
		ratioTarget("q1", 0.90),
		ratioTarget("q2", 0.35),
		ratioTarget("q3", 0.65),
		ratioTarget("q4", 0.90),
	}
	for _, q := range []string{"q1", "q3"} {
		ts = append(ts, target{
			what: fmt.Sprintf("graft %s-apq (hash only) no dearer than %s", q, q),
			judge: func(m *measurement) (string, bool, bool) {
				h, f := m.summary("graft", q+"-apq"), m.summary("graft", q)
				if !h.ok || !f.ok || f.cpuPerReq == 0 {
					return "–", false, false
				}
				fig := fmt.Sprintf("%s vs %s CPU µs/req", micros(h.cpuPerReq), micros(f.cpuPerReq))
				rounds := m.pairedCPURounds("graft", q+"-apq", q)
				if rounds == nil {
					return fig, h.cpuPerReq <= f.cpuPerReq, true
				}
				r := median(rounds)
				fig = fmt.Sprintf("%s; paired ratio %.3f", fig, r)
				if len(rounds) > 1 {
					fig += " (rounds " + joinRatios(rounds) + ")"
				}
				// The ceiling does the same work for either body: its
				// paired ratio is what the host and the bodies' sizes
				// alone make of the comparison.
				if c := m.pairedCPURounds("ceiling", q+"-apq", q); c != nil {
					fig += fmt.Sprintf("; the ceiling on the same two bodies %.3f", median(c))
				}
				return fig, r <= 1, true
			},
		})
	}
	shapes := []int{conns}
	if connsHigh > 0 && connsHigh != conns {
		shapes = append(shapes, connsHigh)
	}
	for _, c := range shapes {
		for _, q := range []string{"q1", "q2", "q3", "q4"} {
			name := q
			if c != conns {
				name = fmt.Sprintf("%s@%d", q, c)
			}
			ts = append(ts, lowestTarget("graft", name, fmt.Sprintf("%s at %d conns", q, c), 99, peers))
		}
	}
	ts = append(ts, target{
		what: "graft peak RSS under load no higher than 20 MiB",
		judge: func(m *measurement) (string, bool, bool) {
			g := m.peakRSS["graft"]
			if g == 0 {
				return "–", false, false
			}
			fig := mib(g) + " MiB"
			var beside []string
			if a := m.peakAnon["graft"]; a > 0 {
				beside = append(beside, "anon "+mib(a))
			}
			for _, other := range []string{"ceiling", "gqlgen"} {
				if q := m.peakRSS[other]; q > 0 {
					beside = append(beside, other+" "+mib(q))
				}
			}
			if len(beside) > 0 {
				fig += " (" + strings.Join(beside, "; ") + ")"
			}
			return fig, g <= 20<<20, true
		},
	})
	ts = append(ts, target{
		// Judged on Router.AppendExecute: the whole pipeline without HTTP,
		// writing into the caller's buffer as the engine does; Execute,
		// which hands the caller a fresh body each time, is shown beside.
		what: "in process, q2 warm through the engine (Router.AppendExecute) ≤ 45 µs and ≤ 10 allocs/op",
		judge: func(m *measurement) (string, bool, bool) {
			if m.inProc == nil || m.inProc.skipped != "" {
				return "–", false, false
			}
			ns, allocs, ok := m.inProc.find("BenchmarkQ2/graft-append-warm")
			if !ok {
				return "–", false, false
			}
			fig := fmt.Sprintf("%.0f µs, %d allocs/op", ns/1000, allocs)
			if ens, eallocs, ok := m.inProc.find("BenchmarkQ2/graft-warm"); ok {
				fig += fmt.Sprintf(" (Router.Execute, a fresh body each call: %.0f µs, %d allocs/op)", ens/1000, eallocs)
			}
			return fig, ns <= 45000 && allocs <= 10, true
		},
	})
	upPeers := []string{"gqlgen-upstream", "graph-gophers-upstream", "mercurius-upstream"}
	ts = append(ts,
		target{
			what: fmt.Sprintf("%s q5: 2 upstream calls per request", graftUpstreamBatch),
			judge: func(m *measurement) (string, bool, bool) {
				ce := m.cells[[2]string{graftUpstreamBatch, "q5"}]
				if ce == nil || ce.oneCalls < 0 {
					return "–", false, false
				}
				return strconv.FormatInt(ce.oneCalls, 10), ce.oneCalls == 2, true
			},
		},
		upstreamRatioTarget(graftUpstreamBatch, "gqlgen-upstream", "q5", 3),
		lowestTarget(graftUpstreamBatch, "q5", "q5", 50, upPeers),
		lowestTarget(graftUpstreamBatch, "q5", "q5", 99, upPeers),
		upstreamRatioTarget(graftUpstreamRaw, "gqlgen-upstream", "q6", 5),
		upstreamRatioTarget(graftUpstreamRaw, graftUpstreamStructs, "q6", 2.5),
	)
	return ts
}

// targetsMarkdown renders the targets table.
func (m *measurement) targetsMarkdown() string {
	var b strings.Builder
	b.WriteString("| target | measured | met |\n|---|---|---|\n")
	for _, t := range targets(m.opts.conns, m.opts.connsHigh) {
		fig, met, known := t.judge(m)
		verdict := "no"
		switch {
		case !known:
			fig, verdict = "–", "not measured"
		case met:
			verdict = "yes"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", t.what, fig, verdict)
	}
	if m.base != nil {
		fig, verdict := m.baseTarget()
		fmt.Fprintf(&b, "| %s | %s | %s |\n", m.baseTargetWhat(), fig, verdict)
	}
	return b.String()
}

// find returns ns/op and allocs/op of the benchmark named name: the
// medians over its repeated runs when there are any, else its one line in
// the whole set.
func (r inProcessResult) find(name string) (ns float64, allocs int, ok bool) {
	for _, out := range []string{r.repeats, r.output} {
		var nss, as []float64
		sc := bufio.NewScanner(strings.NewReader(out))
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) < 8 || strings.TrimSuffix(f[0], "-1") != name {
				continue
			}
			ns, err1 := strconv.ParseFloat(f[2], 64)
			a, err2 := strconv.Atoi(f[6])
			if err1 == nil && err2 == nil {
				nss, as = append(nss, ns), append(as, float64(a))
			}
		}
		if len(nss) > 0 {
			return median(nss), int(median(as)), true
		}
	}
	return 0, 0, false
}

// joinRatios formats ratios to three decimals, separated by commas.
func joinRatios(rs []float64) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("%.3f", r)
	}
	return strings.Join(parts, ", ")
}
