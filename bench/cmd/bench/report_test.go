package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/graftgql/graft/bench/workload"
)

func itoa(n int) string { return strconv.Itoa(n) }

func TestMedian(t *testing.T) {
	tests := []struct {
		in   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
	}
	for _, tt := range tests {
		if got := median(tt.in); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestPercentile(t *testing.T) {
	var r loadResult
	for i := 1; i <= 100; i++ {
		r.latencies = append(r.latencies, time.Duration(i)*time.Millisecond)
	}
	if got := r.percentile(50); got != 50*time.Millisecond {
		t.Errorf("p50 = %v, want 50ms", got)
	}
	if got := r.percentile(99); got != 99*time.Millisecond {
		t.Errorf("p99 = %v, want 99ms", got)
	}
	if got := (loadResult{}).percentile(99); got != 0 {
		t.Errorf("empty p99 = %v, want 0", got)
	}
}

func TestMarkdownRatios(t *testing.T) {
	qs := workload.Queries()[:1]
	m := &measurement{
		opts:    options{rounds: 1, conns: 1, args: []string{"-smoke"}},
		servers: []string{"ceiling", "gqlgen", "graft"},
		queries: qs,
		cells: map[[2]string]*cell{
			{"ceiling", "q1"}: {samples: []sample{{rps: 1000, p50: time.Millisecond, cpuPerReq: 50 * time.Microsecond}}},
			{"gqlgen", "q1"}:  {samples: []sample{{rps: 250, cpuPerReq: 100 * time.Microsecond}}},
			{"graft", "q1"}:   {samples: []sample{{rps: 900}, {rps: 800}, {rps: 100}}},
		},
		peakRSS: map[string]int64{},
	}
	out := m.markdown()
	assertContains(t, "report", out,
		"| graft | 0.80 |",              // median of 900, 800, 100 over the ceiling's 1000
		"| graft | 800 | 0.80 | 3.20 |", // and over gqlgen's 250
		"| ceiling | 1000 | 1.00 | 4.00 | – | 1000 |",
		"| gqlgen | 0.50 |\n", // CPU ratio: 50µs over 100µs; graft has no CPU figure
		"| graft | – |\n",
		"go run ./cmd/bench -smoke",
	)
}

func TestParseOptions(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr bool
		check   func(options) bool
	}{
		{"defaults", nil, false, func(o options) bool {
			return o.rounds == 3 && o.conns == 32 && len(o.queries) == 9 && o.connsHigh == 256 && o.connsLow == 1 && o.alternate == 160 && o.block == 50*time.Millisecond
		}},
		{"smoke is one short round", []string{"-smoke"}, false, func(o options) bool {
			return o.rounds == 1 && o.duration < time.Second && !o.inProcess && o.connsHigh == 0 && o.connsLow == 0 && o.alternate == 4
		}},
		{"no alternating blocks", []string{"-alternate", "0"}, false, func(o options) bool { return o.alternate == 0 }},
		{"alternating blocks come in fours", []string{"-alternate", "6"}, true, nil},
		{"an alternating block needs a length", []string{"-block", "0"}, true, nil},
		{"smoke with the second shape", []string{"-smoke", "-conns-high", "64"}, false, func(o options) bool { return o.connsHigh == 64 }},
		{"server list", []string{"-servers", "ceiling,graft"}, false, func(o options) bool { return len(o.servers) == 2 }},
		{"zero connections", []string{"-conns", "0"}, true, nil},
		{"unknown flag", []string{"-nope"}, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := parseOptions(tt.args)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if tt.check != nil && !tt.check(o) {
				t.Errorf("options = %+v", o)
			}
		})
	}
}

func TestInProcessTable(t *testing.T) {
	r := inProcessResult{output: "goos: linux\nBenchmarkQ2/graft-warm \t 1000\t 250000 ns/op\t 2000 B/op\t 30 allocs/op\nPASS\n"}
	if got := r.table(); !strings.Contains(got, "| BenchmarkQ2/graft-warm | 250000 | 2000 | 30 |") {
		t.Errorf("table = %s", got)
	}
}

// TestRatioTargetShowsTheDecidingDigit: a ratio that rounds to the
// target gets a third decimal, so the figure agrees with the verdict.
func TestRatioTargetShowsTheDecidingDigit(t *testing.T) {
	for _, tc := range []struct {
		rps  float64
		want string
	}{
		{896, "| graft q1 ≥ 0.90 of the ceiling's req/s | 0.896 | no |"},
		{904, "| graft q1 ≥ 0.90 of the ceiling's req/s | 0.904 | yes |"},
		{900, "| graft q1 ≥ 0.90 of the ceiling's req/s | 0.90 | yes |"},
		{950, "| graft q1 ≥ 0.90 of the ceiling's req/s | 0.95 | yes |"},
	} {
		m := &measurement{cells: map[[2]string]*cell{
			{"ceiling", "q1"}: {samples: []sample{{rps: 1000}}},
			{"graft", "q1"}:   {samples: []sample{{rps: tc.rps}}},
		}}
		fig, met, _ := ratioTarget("q1", 0.90).judge(m)
		verdict := map[bool]string{true: "yes", false: "no"}[met]
		if got := "| graft q1 ≥ 0.90 of the ceiling's req/s | " + fig + " | " + verdict + " |"; got != tc.want {
			t.Errorf("graft at %v: %s, want %s", tc.rps, got, tc.want)
		}
	}
}

func TestTargets(t *testing.T) {
	m := &measurement{
		opts: options{conns: 32, connsHigh: 256},
		cells: map[[2]string]*cell{
			{"ceiling", "q1"}:        {samples: []sample{{rps: 1000}}},
			{"graft", "q1"}:          {samples: []sample{{rps: 950, p99: 2 * time.Millisecond, cpuPerReq: 80 * time.Microsecond}}},
			{"graft-fasthttp", "q1"}: {samples: []sample{{rps: 1500}}},
			{"gqlgen", "q1"}:         {samples: []sample{{rps: 500, p99: 3 * time.Millisecond}}},
			{"ceiling", "q2"}:        {samples: []sample{{rps: 1000}}},
			{"graft", "q2"}:          {samples: []sample{{rps: 50, p99: 9 * time.Millisecond}}},
			{"gqlgen", "q2"}:         {samples: []sample{{rps: 5, p99: 8 * time.Millisecond}}},
			{"graft", "q2@256"}:      {samples: []sample{{rps: 50, p99: 7 * time.Millisecond}}},
			{"mercurius", "q2@256"}:  {samples: []sample{{rps: 40, p99: 8 * time.Millisecond}}},
			{"yoga", "q2@256"}:       {samples: []sample{{rps: 30, p99: 7500 * time.Microsecond}}},
			{"graft", "q1-apq"}:      {samples: []sample{{rps: 950, cpuPerReq: 90 * time.Microsecond}}},
			// Rounds of different speed: the medians (125 vs 120) say
			// dearer, each round's pair (0.98, 0.99, 1.04) says cheaper.
			{"graft", "q3"}:     {samples: []sample{{cpuPerReq: 100 * time.Microsecond}, {cpuPerReq: 140 * time.Microsecond}, {cpuPerReq: 120 * time.Microsecond}}},
			{"graft", "q3-apq"}: {samples: []sample{{cpuPerReq: 98 * time.Microsecond}, {cpuPerReq: 138 * time.Microsecond}, {cpuPerReq: 125 * time.Microsecond}}},
			// The ceiling's pair: 1.000, 1.020, 0.990.
			{"ceiling", "q3"}:     {samples: []sample{{cpuPerReq: 50 * time.Microsecond}, {cpuPerReq: 50 * time.Microsecond}, {cpuPerReq: 100 * time.Microsecond}}},
			{"ceiling", "q3-apq"}: {samples: []sample{{cpuPerReq: 50 * time.Microsecond}, {cpuPerReq: 51 * time.Microsecond}, {cpuPerReq: 99 * time.Microsecond}}},
			// Rounds of different speed, measured back to back: the
			// medians (800 vs 900) give 0.89, each round's pair (0.92,
			// 0.93, 0.89) gives 0.92.
			{"ceiling", "q4"}:        {samples: []sample{{rps: 1000}, {rps: 600}, {rps: 900}}},
			{"graft", "q4"}:          {samples: []sample{{rps: 920}, {rps: 560}, {rps: 800}}},
			{"graft-upstream", "q5"}: {oneCalls: 51, samples: []sample{{rps: 400, p50: 3 * time.Millisecond, p99: 9 * time.Millisecond}}},
			// The latency targets are judged on the raw entry.
			{"graft-upstream-raw", "q5"}: {oneCalls: 2, samples: []sample{{rps: 900, p50: 3 * time.Millisecond, p99: 9 * time.Millisecond}}},
			{"graft-upstream-raw", "q6"}: {oneCalls: 2, samples: []sample{{rps: 900, p50: 1 * time.Millisecond, p99: 2 * time.Millisecond}}},
			{"mercurius-upstream", "q6"}: {oneCalls: 2, samples: []sample{{rps: 300, p50: 5 * time.Millisecond, p99: 20 * time.Millisecond}}},
			{"gqlgen-upstream", "q5"}:    {oneCalls: 2, samples: []sample{{rps: 100, p50: 4 * time.Millisecond, p99: 8 * time.Millisecond}}},
			{"apollo-upstream", "q5"}:    {oneCalls: 2, samples: []sample{{rps: 90, p50: 2 * time.Millisecond, p99: 20 * time.Millisecond}}},
			{"gqlgen-upstream", "q6"}:    {samples: []sample{{rps: 100, p50: 10 * time.Millisecond, p99: 30 * time.Millisecond}}},
			{"graft-upstream", "q6"}:     {samples: []sample{{rps: 200}}},
			// q7: raw 1.6× structs, 4.0× gqlgen; at 64 connections
			// deduplication 2.5× without, with fewer calls per request.
			{"graft-tailcall", "q7"}:           {samples: []sample{{rps: 500}}},
			{"graft-tailcall-raw", "q7"}:       {samples: []sample{{rps: 800}}},
			{"gqlgen-tailcall", "q7"}:          {samples: []sample{{rps: 200}}},
			{"graft-tailcall-raw", "q7@64"}:    {samples: []sample{{rps: 800, calls: 2}}},
			{"graft-tailcall-dedupe", "q7@64"}: {samples: []sample{{rps: 2000, calls: 0.25}}},
		},
		peakRSS: map[string]int64{"graft": 10 << 20, "gqlgen": 30 << 20}, peakAnon: map[string]int64{"graft": 4 << 20},
		inProc: &inProcessResult{output: "BenchmarkQ2/graft-warm \t 1000\t 60000 ns/op\t 52000 B/op\t 9 allocs/op\n" +
			"BenchmarkQ2/graft-append-warm \t 1000\t 44000 ns/op\t 2000 B/op\t 11 allocs/op\n"},
	}
	out := m.targetsMarkdown()
	for _, want := range []string{
		"| graft q1 ≥ 0.90 of the ceiling's req/s | 0.95 (graft-fasthttp 1.50) | yes |",
		"| graft q2 ≥ 0.35 of the ceiling's req/s | 0.05 | no |",
		"| graft q3 ≥ 0.65 of the ceiling's req/s | – | not measured |",
		"| graft q4 ≥ 0.90 of the ceiling's req/s | 0.92 paired by round; medians 0.89 | yes |",
		"| graft q1 at 32 conns p99 below every peer's | 2000 µs vs 3000 µs (gqlgen) | yes |",
		"| graft q2 at 32 conns p99 below every peer's | 9000 µs vs 8000 µs (gqlgen) | no |",
		"| graft q2 at 256 conns p99 below every peer's | 7000 µs vs 7500 µs (yoga) | yes |",
		"| graft q1-apq (hash only) no dearer than q1 | 90 vs 80 CPU µs/req; paired ratio 1.125 | no |",
		"| graft q3-apq (hash only) no dearer than q3 | 125 vs 120 CPU µs/req; paired ratio 0.986 (rounds 0.980, 0.986, 1.042); the ceiling on the same two bodies 1.000 | yes |",
		"| graft peak RSS under load no higher than 20 MiB | 10.0 MiB (anon 4.0; gqlgen 30.0) | yes |",
		"| in process, q2 warm through the engine (Router.AppendExecute) ≤ 45 µs and ≤ 10 allocs/op | 44 µs, 11 allocs/op (Router.Execute, a fresh body each call: 60 µs, 9 allocs/op) | no |",
		"| graft-upstream q5: 2 upstream calls per request | 51 | no |",
		"| graft-upstream q5 ≥ 3.0× gqlgen-upstream's req/s | 4.00× | yes |",
		"| graft-upstream-raw q5 p50 below every peer's | 3000 µs vs 2000 µs (apollo-upstream) | no |",
		"| graft-upstream-raw q5 p99 below every peer's | 9000 µs vs 8000 µs (gqlgen-upstream) | no |",
		"| graft-upstream-raw q6 ≥ 5.0× gqlgen-upstream's req/s | 9.00× | yes |",
		"| graft-upstream-raw q6 p50 below every peer's | 1000 µs vs 5000 µs (mercurius-upstream) | yes |",
		"| graft-upstream-raw q6 p99 below every peer's | 2000 µs vs 20000 µs (mercurius-upstream) | yes |",
		"| graft-tailcall-raw q7 ≥ 1.5× graft-tailcall's req/s | 1.60× | yes |",
		"| graft-tailcall-raw q7 ≥ 4.8× gqlgen-tailcall's req/s | 4.00× | no |",
		"| graft-tailcall-dedupe q7 at 64 conns ≥ 2× graft-tailcall-raw's req/s (deduplication on against off) | 2.50×; upstream calls/req under load 0.25 on, 2.00 off | yes |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("targets lack %q:\n%s", want, out)
		}
	}
}

// TestMarkdownShapesAndUpstream: the second load shape gets its own tables,
// and the upstream queries show calls per request and p50 at one connection.
func TestMarkdownShapesAndUpstream(t *testing.T) {
	q1, q5 := workload.Queries()[0], workload.UpstreamQueries()[0]
	m := &measurement{
		opts:    options{rounds: 1, conns: 32, connsHigh: 256, connsLow: 1},
		servers: []string{"ceiling", "graft", "gqlgen-upstream", "graft-upstream"},
		queries: []workload.Query{q1, q5},
		cells: map[[2]string]*cell{
			{"ceiling", "q1"}:            {samples: []sample{{rps: 1000}}},
			{"graft", "q1"}:              {samples: []sample{{rps: 900}}},
			{"graft", "q1@256"}:          {samples: []sample{{rps: 800, p50: 3 * time.Millisecond, p99: 7 * time.Millisecond, rss: 20 << 20, anon: 9 << 20}}},
			{"graft", "q5"}:              {skipped: skipInMemory},
			{"gqlgen-upstream", "q1"}:    {skipped: skipUpstream},
			{"graft-upstream", "q1"}:     {skipped: skipUpstream},
			{"gqlgen-upstream", "q5"}:    {oneCalls: 3, samples: []sample{{rps: 100, p50: 9 * time.Millisecond, calls: 2.5}}},
			{"graft-upstream", "q5"}:     {oneCalls: 2, samples: []sample{{rps: 400, p50: 4 * time.Millisecond, p99: 8 * time.Millisecond, cpuPerReq: 300 * time.Microsecond, calls: 2, rss: 10 << 20}}},
			{"graft-upstream", "q5@1"}:   {samples: []sample{{rps: 300, p50: 2100 * time.Microsecond}}},
			{"graft-upstream", "q5@256"}: {samples: []sample{{rps: 420, p50: 30 * time.Millisecond, p99: 60 * time.Millisecond}}},
		},
		peakRSS: map[string]int64{},
	}
	out := m.markdown()
	assertContains(t, "report", out,
		"| graft | 0.90 |\n",
		"### q1 at 256 connections\n\n| server | req/s | p50 µs | p99 µs | RSS MiB | anon MiB |\n|---|---:|---:|---:|---:|---:|\n| ceiling | not measured | | | | |\n| graft | 800 | 3000 | 7000 | 20.0 | 9.0 |\n\n",
		"| graft-upstream | 2 | 2.00 | 400 | 4.00 | 4000 | 8000 | 2100 | 300 | 10.0 |",
		"| gqlgen-upstream | 3 | 2.50 | 100 | 1.00 | 9000 |",
		"| graft-upstream | 420 | 30000 | 60000 |",
	)
	if strings.Contains(out, "| gqlgen-upstream | not measured (upstream server)") {
		t.Errorf("an upstream server is listed for an in-memory query:\n%s", out)
	}
}

// TestMarkdownRatioToMercurius: every graft upstream entry, the raw one
// included, is compared with mercurius-upstream, the in-memory entries with
// mercurius, and a base entry is left out.
func TestMarkdownRatioToMercurius(t *testing.T) {
	q1, q6 := workload.Queries()[0], workload.UpstreamQueries()[1]
	m := &measurement{
		opts:    options{rounds: 1, conns: 32},
		servers: []string{"ceiling", "graft", "mercurius", "graft-upstream", "graft-upstream@abc1234", "graft-upstream-raw", "mercurius-upstream"},
		queries: []workload.Query{q1, q6},
		cells: map[[2]string]*cell{
			{"ceiling", "q1"}:                {samples: []sample{{rps: 1000}}},
			{"graft", "q1"}:                  {samples: []sample{{rps: 900}}},
			{"mercurius", "q1"}:              {samples: []sample{{rps: 450}}},
			{"graft-upstream", "q6"}:         {samples: []sample{{rps: 300}}},
			{"graft-upstream@abc1234", "q6"}: {samples: []sample{{rps: 290}}},
			{"graft-upstream-raw", "q6"}:     {samples: []sample{{rps: 1200}}},
			{"mercurius-upstream", "q6"}:     {samples: []sample{{rps: 400}}},
		},
		peakRSS: map[string]int64{},
	}
	out := m.markdown()
	_, table, _ := strings.Cut(out, "ratio to Mercurius")
	table, _, _ = strings.Cut(table, "\n## ")
	assertContains(t, "Mercurius table", table,
		"| graft | 2.00 | – |\n",
		"| graft-upstream | – | 0.75 |\n",
		"| graft-upstream-raw | – | 3.00 |\n",
	)
	if strings.Contains(table, "@abc1234") {
		t.Errorf("the base entry is in the Mercurius table:\n%s", table)
	}
}

// TestInProcessTargetTakesTheMedianOfRepeats: the in-process target is
// judged on the median of the repeated runs, not on the one line of the
// whole set (here taken while the machine was slow).
func TestInProcessTargetTakesTheMedianOfRepeats(t *testing.T) {
	line := func(name string, ns, allocs int) string {
		return fmt.Sprintf("%s \t 1000\t %d ns/op\t 2000 B/op\t %d allocs/op\n", name, ns, allocs)
	}
	r := inProcessResult{
		output: line("BenchmarkQ2/graft-append-warm", 70000, 7),
		repeats: line("BenchmarkQ2/graft-append-warm", 69000, 7) + line("BenchmarkQ2/graft-append-warm", 41000, 7) +
			line("BenchmarkQ2/graft-append-warm", 43000, 7),
	}
	if ns, allocs, ok := r.find("BenchmarkQ2/graft-append-warm"); !ok || ns != 43000 || allocs != 7 {
		t.Errorf("find = %v, %d, %v; want the median 43000 ns, 7 allocs", ns, allocs, ok)
	}
	if ns, _, ok := (inProcessResult{output: r.output}).find("BenchmarkQ2/graft-append-warm"); !ok || ns != 70000 {
		t.Errorf("without repeats find = %v, %v; want the whole set's 70000 ns", ns, ok)
	}
	m := &measurement{opts: options{conns: 32}, cells: map[[2]string]*cell{}, inProc: &r}
	want := "| in process, q2 warm through the engine (Router.AppendExecute) ≤ 45 µs and ≤ 10 allocs/op | 43 µs, 7 allocs/op | yes |"
	if out := m.targetsMarkdown(); !strings.Contains(out, want) {
		t.Errorf("targets lack %q:\n%s", want, out)
	}
}

// TestHashOnlyTargetJudgedOnAlternatingBlocks: with alternating blocks the
// hash-only target is judged by a sign test over their pairs, not on the
// rounds (which here say cheaper) nor on the median alone; fewer than
// minPairs pairs judge nothing; the report lists the blocks of graft and
// the ceiling.
func TestHashOnlyTargetJudgedOnAlternatingBlocks(t *testing.T) {
	q1 := workload.Queries()[0]
	all := workload.All()
	q1apq := all[slices.IndexFunc(all, func(q workload.Query) bool { return q.Name == "q1-apq" })]
	m := &measurement{
		opts:    options{rounds: 2, conns: 32, alternate: 8, block: 50 * time.Millisecond},
		servers: []string{"ceiling", "graft"},
		queries: []workload.Query{q1, q1apq},
		cells: map[[2]string]*cell{
			{"graft", "q1"}:     {samples: []sample{{cpuPerReq: 100 * time.Microsecond}, {cpuPerReq: 100 * time.Microsecond}}},
			{"graft", "q1-apq"}: {samples: []sample{{cpuPerReq: 98 * time.Microsecond}, {cpuPerReq: 97 * time.Microsecond}}},
			{"ceiling", "q1"}:   {samples: []sample{{cpuPerReq: 50 * time.Microsecond}, {cpuPerReq: 50 * time.Microsecond}}},
			{"ceiling", "q1-apq"}: {samples: []sample{{cpuPerReq: 50 * time.Microsecond}, {cpuPerReq: 50 * time.Microsecond}},
				alt: alternated{ratios: append(repeat(0.98, 55), repeat(1.02, 55)...), cpu: [2]time.Duration{time.Millisecond, time.Millisecond}, requests: [2]int64{100, 100}}},
		},
		peakRSS: map[string]int64{},
	}
	graft := m.cells[[2]string{"graft", "q1-apq"}]
	const rounds = "; in the rounds 98 vs 100 CPU µs/req; paired ratio 0.975 (rounds 0.980, 0.970); the ceiling on the same two bodies 1.000"
	const ceiling = "; the ceiling on the same two bodies 1.000 (90% interval 0.980–1.020), p = 0.54"
	tests := []struct {
		name   string
		ratios []float64
		want   string
	}{
		{"dearer in significantly more than half the pairs", append(repeat(1.01, 70), repeat(0.99, 40)...),
			"| graft q1-apq (hash only) no dearer than q1 | median ratio 1.010 (90% interval 1.010–1.010) over 110 pairs of alternating blocks; dearer in 70 of 110, sign test p = 0.00: dearer (20 vs 20 CPU µs/req)" + ceiling + "; graft's pairs above the ceiling's, rank-sum p = 0.50" + rounds + " | no |"},
		// The median is above 1, but no more pairs say dearer than cheaper
		// than chance gives: a rule on the median alone would fail it.
		{"dearer in about half the pairs", append(repeat(0.99, 54), repeat(1.01, 56)...),
			"| graft q1-apq (hash only) no dearer than q1 | median ratio 1.010 (90% interval 0.990–1.010) over 110 pairs of alternating blocks; dearer in 56 of 110, sign test p = 0.46: not measurably dearer (20 vs 20 CPU µs/req)" + ceiling + "; graft's pairs above the ceiling's, rank-sum p = 0.50" + rounds + " | yes |"},
		{"too few pairs", []float64{0.9, 0.95, 0.97, 0.99},
			"| graft q1-apq (hash only) no dearer than q1 | median ratio 0.960 (90% interval 0.900–0.990) over 4 pairs of alternating blocks; dearer in 0 of 4, sign test p = 1.00: too few pairs to judge (fewer than 100) (20 vs 20 CPU µs/req)" + ceiling + "; graft's pairs above the ceiling's, rank-sum p = 0.99" + rounds + " | no |"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			graft.alt = alternated{ratios: tt.ratios, cpu: [2]time.Duration{4 * time.Millisecond, 4 * time.Millisecond}, requests: [2]int64{200, 200}}
			assertContains(t, "report", m.markdown(), tt.want)
		})
	}
	graft.alt = alternated{ratios: append(repeat(0.99, 54), repeat(1.01, 56)...), cpu: [2]time.Duration{4 * time.Millisecond, 4100 * time.Microsecond}, requests: [2]int64{200, 200}}
	out := m.markdown()
	assertContains(t, "report", out,
		"## Hash-only persisted queries against their full queries, in alternating blocks\n",
		"switching all together every 60ms",
		"| ceiling | q1-apq against q1 | 110 | 1.000 | 0.980–1.020 | 0.980–1.020 | 1.000 ± 0.002 | 55 of 110, p = 0.54 | 10 | 10 |\n| graft | q1-apq against q1 | 110 | 1.010 | 0.990–1.010 | 0.990–1.010 | 1.000 ± 0.001 | 56 of 110, p = 0.46 | 20 | 20 |\n",
		"ceiling and graft served the full query and the hash-only one in 8 alternating blocks",
		"<details><summary>each pair's ratio, in the order measured</summary>\n\n```\nceiling q1-apq: 0.980, 0.980,",
		"\ngraft q1-apq: 0.990, 0.990,",
	)
	// Without blocks (-alternate 0), the rounds judge.
	m.opts.alternate = 0
	for _, k := range [][2]string{{"graft", "q1-apq"}, {"ceiling", "q1-apq"}} {
		m.cells[k].alt = alternated{}
	}
	out = m.markdown()
	assertContains(t, "report", out, "| graft q1-apq (hash only) no dearer than q1 | 98 vs 100 CPU µs/req; paired ratio 0.975 (rounds 0.980, 0.970); the ceiling on the same two bodies 1.000 | yes |")
	if strings.Contains(out, "alternating blocks") {
		t.Errorf("a report without blocks mentions them:\n%s", out)
	}
}

// assertContains reports each of wants that out (what, for the message)
// lacks.
func assertContains(t *testing.T, what, out string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, out)
		}
	}
}

// TestCostTargetJudgedOnAlternatingServers: with enough pairs of
// alternating blocks a cost target is judged on their median ratio, the
// rounds' figure beside; with too few, on the rounds.
func TestCostTargetJudgedOnAlternatingServers(t *testing.T) {
	us := func(v ...int) []sample {
		var out []sample
		for _, x := range v {
			out = append(out, sample{cpuPerReq: time.Duration(x) * time.Microsecond, rps: 1e6 / float64(x)})
		}
		return out
	}
	m := &measurement{
		opts: options{rounds: 2, conns: 32},
		cells: map[[2]string]*cell{
			{"graft-shipped-nolog", "q1"}:   {samples: us(20, 20)},
			{"graft-shipped-tracing", "q1"}: {samples: us(22, 23)}, // rounds: cost about 11%
		},
	}
	target := costTarget("graft-shipped-tracing", "graft-shipped-nolog", "q1", "tracing", 0.05)
	tests := []struct {
		name   string
		ratios []float64
		want   string
		met    bool
	}{
		{"cheap in the blocks", append(repeat(1.02, 60), repeat(1.04, 60)...),
			"0.971 (cost 2.9%) in 120 pairs of alternating blocks (CPU per request 1.030× the base's, 90% interval 1.020–1.040; 21 vs 20 CPU µs/req); in the rounds 0.889 (cost 11.1%)", true},
		{"dear in the blocks", repeat(1.08, 120),
			"0.926 (cost 7.4%) in 120 pairs of alternating blocks", false},
		{"too few pairs", repeat(1.0, 10), "0.889 (cost 11.1%); req/s ratio", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m.cells[[2]string{"graft-shipped-tracing", "q1"}].against = alternated{ratios: tt.ratios,
				cpu: [2]time.Duration{2 * time.Millisecond, 2100 * time.Microsecond}, requests: [2]int64{100, 100}}
			fig, met, ok := target.judge(m)
			if !ok || met != tt.met || !strings.Contains(fig, tt.want) {
				t.Errorf("judge = %q, met %v, ok %v; want it to contain %q, met %v", fig, met, ok, tt.want, tt.met)
			}
		})
	}
}
