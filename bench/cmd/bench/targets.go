package main

import (
	"fmt"
	"strings"
)

// target is one of graft's performance targets, judged on a run.
type target struct {
	what string
	// judge returns the measured figure and whether the target is met; ok
	// is false with figure "–" when the run lacks the data.
	judge func(m *measurement) (figure string, met, known bool)
}

// rpsRatio is the median throughput of server over that of base on query.
func (m *measurement) rpsRatio(server, base, query string) (float64, bool) {
	a, b := m.summary(server, query), m.summary(base, query)
	if !a.ok || !b.ok || b.rps == 0 {
		return 0, false
	}
	return a.rps / b.rps, true
}

func ratioTarget(server, query string, min float64) target {
	return target{
		what: fmt.Sprintf("%s %s ≥ %.2f of the ceiling's req/s", server, query, min),
		judge: func(m *measurement) (string, bool, bool) {
			r, ok := m.rpsRatio(server, "ceiling", query)
			return fmt.Sprintf("%.2f", r), r >= min, ok
		},
	}
}

var peers = []string{"gqlgen", "graph-gophers", "graphql-go"}

func targets() []target {
	ts := []target{
		ratioTarget("graft", "q1", 0.85),
		ratioTarget("graft-fasthttp", "q1", 1.0),
		ratioTarget("graft", "q2", 0.10),
		ratioTarget("graft", "q3", 0.40),
		ratioTarget("graft", "q4", 0.50),
	}
	for _, q := range []string{"q1", "q2", "q3", "q4"} {
		ts = append(ts, target{
			what: fmt.Sprintf("graft %s p99 below every peer's", q),
			judge: func(m *measurement) (string, bool, bool) {
				g := m.summary("graft", q)
				if !g.ok {
					return "–", false, false
				}
				met, best := true, ""
				for _, p := range peers {
					ps := m.summary(p, q)
					if !ps.ok {
						continue
					}
					if ps.p99 <= g.p99 {
						met = false
					}
					if best == "" || ps.p99 < m.summary(best, q).p99 {
						best = p
					}
				}
				if best == "" {
					return "–", false, false
				}
				return fmt.Sprintf("%s µs vs %s µs (%s)", micros(g.p99), micros(m.summary(best, q).p99), best), met, true
			},
		})
	}
	for _, q := range []string{"q1", "q3"} {
		ts = append(ts, target{
			what: fmt.Sprintf("graft %s-apq (hash only) no dearer than %s", q, q),
			judge: func(m *measurement) (string, bool, bool) {
				h, f := m.summary("graft", q+"-apq"), m.summary("graft", q)
				if !h.ok || !f.ok || f.cpuPerReq == 0 {
					return "–", false, false
				}
				return fmt.Sprintf("%s vs %s CPU µs/req", micros(h.cpuPerReq), micros(f.cpuPerReq)), h.cpuPerReq <= f.cpuPerReq, true
			},
		})
	}
	ts = append(ts, target{
		what: "graft peak RSS no higher than gqlgen's",
		judge: func(m *measurement) (string, bool, bool) {
			g, q := m.peakRSS["graft"], m.peakRSS["gqlgen"]
			if g == 0 || q == 0 {
				return "–", false, false
			}
			return fmt.Sprintf("%s vs %s MiB", mib(g), mib(q)), g <= q, true
		},
	})
	return ts
}

// targetsMarkdown renders the targets table.
func (m *measurement) targetsMarkdown() string {
	var b strings.Builder
	b.WriteString("| target | measured | met |\n|---|---|---|\n")
	for _, t := range targets() {
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
	return b.String()
}
