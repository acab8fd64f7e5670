package main

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/graftgql/graft/bench/servers"
)

// target is one of graft's performance targets, judged on a run.
type target struct {
	what string
	// judge returns the measured figure and whether the target is met; ok
	// is false with figure "–" when the run lacks the data.
	judge func(m *measurement) (figure string, met, known bool)
}

// The graft entries the upstream targets are judged on: the batching one
// that decodes the upstream's JSON into structs (q5's calls and its ratio
// to gqlgen, and q6's baseline) and the batching one that writes the
// upstream's raw JSON (q6's ratios, and the lowest latencies of q5 and q6:
// graft's documented way to serve upstream JSON).
const (
	graftTailcallStructs = "graft-tailcall"
	graftTailcallRaw     = "graft-tailcall-raw"
	graftTailcallDedupe  = "graft-tailcall-dedupe"
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
			if hidesVerdict(r, min) {
				_, fig, _ = m.judgedRatio("graft", "ceiling", query, "%.3f")
			}
			if f, fok := m.rpsRatio("graft-fasthttp", "ceiling", query); fok {
				fig += fmt.Sprintf(" (graft-fasthttp %.2f", f)
				if _, ff, fok := m.judgedRatio("graft-fasthttp", "ceiling-fasthttp", query, "%.2f"); fok {
					fig += "; " + ff + " of ceiling-fasthttp"
				}
				fig += ")"
			}
			return fig, r >= min, ok
		},
	}
}

// costTarget: turning what on in cmd/graft (server, against base without
// it) costs at most maxCost of query's throughput. The server is bound by
// its one core, so its throughput is the inverse of its CPU per request:
// the target is judged on base's CPU per request over server's. With
// alternating blocks of the two servers (measureServerPairs, at least
// minPairs pairs) it is the inverse of the pairs' median ratio: a cost of a
// few per cent is smaller than the machine's changes of speed between
// measurements seconds apart, which the blocks' fraction of a second
// spares. Without, it is the rounds' ratio, paired by round (they are
// measured back to back); the req/s ratio is shown beside.
func costTarget(server, base, query, what string, maxCost float64) target {
	return target{
		what: fmt.Sprintf("cmd/graft: %s costs ≤ %.0f%% of %s's throughput (%s against %s, by server CPU per request)", what, maxCost*100, query, server, base),
		judge: func(m *measurement) (string, bool, bool) {
			r, ok := m.paired([2]string{base, query}, [2]string{server, query}, func(s sample) float64 { return float64(s.cpuPerReq) })
			if !ok {
				return "–", false, false
			}
			rounds := fmt.Sprintf("%.3f (cost %.1f%%)", r, (1-r)*100)
			if rr, _, rok := m.judgedRatio(server, base, query, "%.3f"); rok {
				rounds += fmt.Sprintf("; req/s ratio %.3f", rr)
			}
			var alt alternated
			if ce := m.cells[[2]string{server, query}]; ce != nil {
				alt = ce.against
			}
			if len(alt.ratios) < minPairs {
				return rounds, r >= 1-maxCost, true
			}
			// Judged on the alternating blocks: the median of the pairs'
			// CPU per request over the base's, as a throughput ratio.
			st := summarizePairs(alt.ratios)
			tr := 1 / st.median
			fig := fmt.Sprintf("%.3f (cost %.1f%%) in %d pairs of alternating blocks (CPU per request %.3f× the base's, 90%% interval %.3f–%.3f; %s vs %s CPU µs/req); in the rounds %s",
				tr, (1-tr)*100, st.pairs, st.median, st.lo, st.hi, micros(alt.perRequest(1)), micros(alt.perRequest(0)), rounds)
			return fig, tr >= 1-maxCost, true
		},
	}
}

// hidesVerdict reports whether r, shown with two decimals, would read as
// the target min while missing or meeting it by less: such a ratio is
// shown with three.
func hidesVerdict(r, min float64) bool {
	return r != min && fmt.Sprintf("%.2f", r) == fmt.Sprintf("%.2f", min)
}

// upstreamRatioTarget: server reaches min × base's req/s on query.
func upstreamRatioTarget(server, base, query string, min float64) target {
	return target{
		what: fmt.Sprintf("%s %s ≥ %.1f× %s's req/s", server, query, min, base),
		judge: func(m *measurement) (string, bool, bool) {
			r, fig, ok := m.judgedRatio(server, base, query, "%.2f×")
			if hidesVerdict(r, min) {
				_, fig, _ = m.judgedRatio(server, base, query, "%.3f×")
			}
			return fig, r >= min, ok
		},
	}
}

// dedupeTarget: graft-tailcall-dedupe (raw JSON, upstream calls shared
// across requests by loader.Shared) reaches 2× graft-tailcall-raw (the
// same without) on q7 at dedupeConns connections; the figure gives both
// servers' upstream calls per request under load.
func dedupeTarget(conns int) target {
	q := "q7"
	if conns != dedupeConns {
		q = fmt.Sprintf("q7@%d", dedupeConns)
	}
	ratio := upstreamRatioTarget(graftTailcallDedupe, graftTailcallRaw, q, 2)
	return target{
		what: fmt.Sprintf("%s q7 at %d conns ≥ 2× %s's req/s (deduplication on against off)", graftTailcallDedupe, dedupeConns, graftTailcallRaw),
		judge: func(m *measurement) (string, bool, bool) {
			fig, met, ok := ratio.judge(m)
			if ok {
				fig += fmt.Sprintf("; upstream calls/req under load %.2f on, %.2f off", m.callsUnderLoad(graftTailcallDedupe, q), m.callsUnderLoad(graftTailcallRaw, q))
			}
			return fig, met, ok
		},
	}
}

// minPairs is the fewest pairs of alternating blocks the hash-only target
// is judged on: with the spread of this machine's blocks (quartiles about
// ±4% from the median), a sign test over 100 pairs finds a true difference
// of about 2% four times in five.
const minPairs = 100

// hashOnlyTarget: graft answers q's hash-only persisted query (q-apq) for
// no more server CPU per request than the full query q. With alternating
// blocks (see measureAlternating) it is judged by a one-sided sign test
// over their pairs: the hash-only query is dearer when its CPU per request
// is above the full query's in significantly more than half the pairs (p
// < 0.05), the way benchstat calls a difference. A rule on the median
// alone (≤ 1) would fail two queries of equal cost half the time, as the
// ceiling, which does the same work for either body, shows. The figure
// gives the median ratio and its 90% interval (one-sided 95% bounds). A
// run without blocks is judged on the rounds' paired ratio (≤ 1).
func hashOnlyTarget(q string) target {
	return target{
		what: fmt.Sprintf("graft %s-apq (hash only) no dearer than %s", q, q),
		judge: func(m *measurement) (string, bool, bool) {
			rounds, rr, rok := m.hashOnlyRounds(q)
			alt := m.alternation("graft", q+"-apq")
			if len(alt.ratios) == 0 {
				return rounds, rr <= 1, rok
			}
			st := summarizePairs(alt.ratios)
			fig := fmt.Sprintf("median ratio %s over %d pairs of alternating blocks; dearer in %d of %d, sign test p = %.2f",
				st.withInterval(), st.pairs, st.dearer, st.n, st.p)
			met := st.p >= 0.05 && st.pairs >= minPairs
			switch {
			case st.pairs < minPairs:
				fig += fmt.Sprintf(": too few pairs to judge (fewer than %d)", minPairs)
			case met:
				fig += ": not measurably dearer"
			default:
				fig += ": dearer"
			}
			fig += fmt.Sprintf(" (%s vs %s CPU µs/req)", micros(alt.perRequest(1)), micros(alt.perRequest(0)))
			// The ceiling does the same work for either body: its ratio is
			// what the bodies' sizes alone make of the comparison.
			// Beside it, graft's pairs against the ceiling's: whether graft's
			// hash-only query costs more than the bodies alone make it.
			if c := m.alternation("ceiling", q+"-apq"); len(c.ratios) > 0 {
				cs := summarizePairs(c.ratios)
				fig += fmt.Sprintf("; the ceiling on the same two bodies %s, p = %.2f; graft's pairs above the ceiling's, rank-sum p = %.2f",
					cs.withInterval(), cs.p, rankSumTest(alt.ratios, c.ratios))
			}
			if rok {
				fig += "; in the rounds " + rounds
			}
			return fig, met, true
		},
	}
}

// hashOnlyRounds is graft's CPU per request on q-apq against q from the
// rounds: the figure, the median over the rounds of their paired ratio
// (or the medians' ratio when a round lacks one), and whether both were
// measured.
func (m *measurement) hashOnlyRounds(q string) (figure string, r float64, ok bool) {
	h, f := m.summary("graft", q+"-apq"), m.summary("graft", q)
	if !h.ok || !f.ok || f.cpuPerReq == 0 {
		return "–", 0, false
	}
	fig := fmt.Sprintf("%s vs %s CPU µs/req", micros(h.cpuPerReq), micros(f.cpuPerReq))
	rounds := m.pairedCPURounds("graft", q+"-apq", q)
	if rounds == nil {
		return fig, float64(h.cpuPerReq) / float64(f.cpuPerReq), true
	}
	r = median(rounds)
	fig = fmt.Sprintf("%s; paired ratio %.3f", fig, r)
	if len(rounds) > 1 {
		fig += " (rounds " + joinRatios(rounds) + ")"
	}
	if c := m.pairedCPURounds("ceiling", q+"-apq", q); c != nil {
		fig += fmt.Sprintf("; the ceiling on the same two bodies %.3f", median(c))
	}
	return fig, r, true
}

// alternation is the alternating measurement of server on the hash-only
// query hashOnly (empty when there is none).
func (m *measurement) alternation(server, hashOnly string) alternated {
	if ce := m.cells[[2]string{server, hashOnly}]; ce != nil {
		return ce.alt
	}
	return alternated{}
}

// perRequest is the CPU per request over the blocks of the full query
// (0) or the hash-only query (1).
func (a alternated) perRequest(kind int) time.Duration {
	if a.requests[kind] == 0 {
		return 0
	}
	return a.cpu[kind] / time.Duration(a.requests[kind])
}

// alternatedMarkdown renders the alternating measurement of the hash-only
// queries against their full queries ("" when the run has none).
func (m *measurement) alternatedMarkdown() string {
	var rows []string
	for _, q := range m.queries {
		if !q.Persisted {
			continue
		}
		for _, s := range alternatedServers {
			a := m.alternation(s, q.Name)
			if len(a.ratios) == 0 {
				continue
			}
			st := summarizePairs(a.ratios)
			rows = append(rows, fmt.Sprintf("| %s | %s against %s | %d | %.3f | %.3f–%.3f | %.3f–%.3f | %.3f ± %.3f | %d of %d, p = %.2f | %s | %s |", s, q.Name, q.Base, st.pairs,
				st.median, st.lo, st.hi, st.q1, st.q3, st.mean, st.se, st.dearer, st.n, st.p, micros(a.perRequest(0)), micros(a.perRequest(1))))
		}
	}
	if len(rows) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n## Hash-only persisted queries against their full queries, in alternating blocks\n\n")
	fmt.Fprintf(&b, "In each round the server's %d connections sent the full query, then the hash-only one, switching all together every %s (blocks in the order full, hash-only, hash-only, full, …), and the server's CPU time was read around each block. A pair of neighbouring blocks gives one ratio: hash-only CPU per request over the full query's. The machine's speed changes over seconds, which spoils a comparison of measurements seconds apart; neighbouring blocks share it. The ceiling does the same work for either body, so its ratio is what the bodies' sizes alone make of the comparison.\n\n", m.opts.conns, m.opts.block+alternateSettle)
	fmt.Fprintf(&b, "The hash-only target is judged by a one-sided sign test over graft's pairs: the hash-only query is dearer when it cost more in significantly more than half of them (p < 0.05), the way benchstat calls a difference, with at least %d pairs. The 90%% interval of the median ratio gives one-sided 95%% bounds.\n\n", minPairs)
	b.WriteString("| server | queries | pairs | median ratio | 90% interval | quartiles | mean ± standard error | hash only dearer | CPU µs/req, full | CPU µs/req, hash only |\n|---|---|---:|---:|---|---|---:|---|---:|---:|\n")
	b.WriteString(strings.Join(rows, "\n") + "\n")
	b.WriteString("\n<details><summary>each pair's ratio, in the order measured</summary>\n\n```\n")
	for _, q := range m.queries {
		for _, s := range alternatedServers {
			if a := m.alternation(s, q.Name); len(a.ratios) > 0 {
				fmt.Fprintf(&b, "%s %s: %s\n", s, q.Name, joinRatios(a.ratios))
			}
		}
	}
	b.WriteString("```\n\n</details>\n")
	return b.String()
}

// peers are the GraphQL servers graft's latency is held against.
var peers = []string{"gqlgen", "graph-gophers", "graphql-go", "mercurius", "yoga", "apollo"}

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
		ts = append(ts, hashOnlyTarget(q))
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
	ts = append(ts,
		costTarget("graft-shipped", servers.ShippedBase, "q1", "the access log", 0.10),
		costTarget("graft-shipped-metrics", servers.ShippedBase, "q1", "metrics", 0.05),
		costTarget("graft-shipped-tracing", servers.ShippedBase, "q1", "tracing sampled at 1%", 0.05),
	)
	upPeers := []string{"gqlgen-upstream", "graph-gophers-upstream", "mercurius-upstream", "yoga-upstream", "apollo-upstream"}
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
		lowestTarget(graftUpstreamRaw, "q5", "q5", 50, upPeers),
		lowestTarget(graftUpstreamRaw, "q5", "q5", 99, upPeers),
		upstreamRatioTarget(graftUpstreamRaw, "gqlgen-upstream", "q6", 5),
		upstreamRatioTarget(graftUpstreamRaw, graftUpstreamStructs, "q6", 2.5),
		lowestTarget(graftUpstreamRaw, "q6", "q6", 50, upPeers),
		lowestTarget(graftUpstreamRaw, "q6", "q6", 99, upPeers),
		upstreamRatioTarget(graftTailcallRaw, graftTailcallStructs, "q7", 1.5),
		upstreamRatioTarget(graftTailcallRaw, "gqlgen-tailcall", "q7", 4.8),
		dedupeTarget(conns),
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
